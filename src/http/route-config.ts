/**
 * What a route's `config` may say, for the hooks and documents that read it. Declared once here: a plugin
 * that adds its own keys (@fastify/rate-limit) would otherwise make any other key a type error.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Left out of the namespace description and the OpenAPI document. */
    hidden?: boolean;
    summary?: string;
    /** Other media types the 200 answer may have, each with its description. */
    alternatives?: Record<string, string>;
    /** Conditional requests may get 304. */
    notModified?: boolean;
    /** Error statuses of the route's own, each with its description. */
    errors?: Record<number, string>;
    /** A page of the calendar site (HTML errors). */
    site?: boolean;
    /** A page's form that posts without being an API write (the event password). */
    anonymousForm?: boolean;
  }
}

export {};
