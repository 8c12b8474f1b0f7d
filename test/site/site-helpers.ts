import { expect } from 'vitest';
import type { Role } from '../../src/users/roles.ts';
import { API, type TestContext } from '../helpers/test-app.ts';

/** Page requests and API writes bound to one test's context. */
export function siteHelpers(t: () => TestContext) {
  const as = async (role?: Role) => (role ? (await t().user(role)).headers : {});
  return {
    async event(payload: Record<string, unknown>, role: Role = 'administrator') {
      const res = await t().request({ method: 'POST', url: `${API}/events`, headers: await as(role), payload });
      expect(res.statusCode, JSON.stringify(res.json)).toBe(201);
      return res.json;
    },
    async api(method: string, url: string, payload?: Record<string, unknown>, role: Role = 'administrator') {
      return t().request({ method: method as 'POST', url: `${API}${url}`, headers: await as(role), payload });
    },
    async page(url: string, options: { role?: Role; headers?: Record<string, string> } = {}) {
      const res = await t().app.inject({ url, headers: { ...(await as(options.role)), ...options.headers } });
      return Object.assign(res, { html: res.body });
    },
  };
}

/** The text of an HTML fragment, tags dropped and entities of the escaper decoded. */
export const textOf = (html: string) =>
  html.replace(/<[^>]*>/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');

export function expectHtml(res: { statusCode: number; headers: Record<string, unknown>; body: string }, status: number) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(status);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.body.startsWith('<!doctype html><html lang=')).toBe(true);
}
