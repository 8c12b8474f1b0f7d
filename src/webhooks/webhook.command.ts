import type { Config } from '../config.ts';
import { openDatabase } from '../db/open.ts';
import { ApiError } from '../errors.ts';
import { createStore } from '../store.ts';
import type { Caller } from '../users/roles.ts';
import { ACTIONS, KINDS } from './webhook.schemas.ts';
import { WebhookCommandError } from './webhook-command-error.ts';
import { createWebhookService } from './webhook.service.ts';

/** Whoever runs the CLI operates the service: an administrator. */
const OPERATOR: Caller = { id: 0, login: 'cli', role: 'administrator' };

const listOf = (value: string | undefined, allowed: readonly string[], name: string) => {
  if (value === undefined) return undefined;
  const items = value.split(',').map((item) => item.trim()).filter(Boolean);
  const bad = items.find((item) => !allowed.includes(item));
  if (bad) throw new WebhookCommandError(`--${name} takes ${allowed.join(', ')} (got "${bad}")`);
  return items;
};

/** `cal-events webhook add|list|remove|enable`: the same subscriptions as /cal/events/v1/webhooks. */
export async function webhookCommand(
  sub: string | undefined,
  target: string | undefined,
  options: { kinds?: string; actions?: string; category?: string },
  config: Config,
  print: (value: unknown) => void,
): Promise<number> {
  const { database } = await openDatabase(config.databaseUrl, config.database);
  try {
    const webhooks = createWebhookService({ store: createStore(database.db, database.dialect), config });
    const id = () => {
      if (!target || !/^\d+$/.test(target)) throw new WebhookCommandError(`webhook ${sub} needs the subscription's id`);
      return Number(target);
    };
    try {
      if (sub === 'add') {
        if (!target) throw new WebhookCommandError('webhook add needs the target URL');
        const category = options.category === undefined ? undefined : Number(options.category);
        if (category !== undefined && !Number.isInteger(category)) throw new WebhookCommandError('--category takes a category id');
        print(await webhooks.create({ url: target, kinds: listOf(options.kinds, KINDS, 'kinds'), actions: listOf(options.actions, ACTIONS, 'actions'), category }, OPERATOR));
      } else if (sub === 'list') (await webhooks.list(OPERATOR)).webhooks.forEach(print);
      else if (sub === 'remove') print(await webhooks.remove(id(), OPERATOR));
      else if (sub === 'enable') print(await webhooks.update(id(), { enabled: true }, OPERATOR));
      else throw new WebhookCommandError(`unknown webhook command "${sub ?? ''}"`);
    } catch (error) {
      if (error instanceof ApiError) throw new WebhookCommandError(`${error.message}${error.data.params ? ` ${JSON.stringify(error.data.params)}` : ''}`);
      throw error;
    }
    return 0;
  } finally {
    await database.close();
  }
}
