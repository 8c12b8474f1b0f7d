/**
 * A mistake on the webhook command's line, or what the service refused: printed as a message, exit code 1.
 * A module of its own so the CLI knows it without loading the command (and the whole service with it).
 */
export class WebhookCommandError extends Error {}
