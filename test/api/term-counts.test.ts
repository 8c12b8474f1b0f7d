import { DateTime } from 'luxon';
import { expect, it } from 'vitest';
import { API, describeEachDialect } from '../helpers/test-app.ts';

describeEachDialect('term counts follow event writes', (t) => {
  it('count published events only, through create, status changes, term changes, trash and delete', async () => {
    const admin = (await t().user('administrator')).headers;
    const start = DateTime.utc().plus({ days: 3 }).toFormat('yyyy-MM-dd HH:mm:ss');
    const counts = async () => {
      const res = await t().request({ url: `${API}/categories?hide_empty=false&orderby=name` });
      return Object.fromEntries(res.json.categories.map((c: { name: string; count: number }) => [c.name, c.count]));
    };
    const write = (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
      t().request({ method, url: `${API}${url}`, headers: admin, ...(payload ? { payload } : {}) });

    const a = (await write('POST', '/events', { title: 'A', start_date: start, end_date: start, categories: 'Music,Art' })).json;
    const b = (await write('POST', '/events', { title: 'B', start_date: start, end_date: start, categories: 'Music', status: 'draft' })).json;
    expect(await counts()).toEqual({ Art: 1, Music: 1 });
    await write('PATCH', `/events/${b.id}`, { status: 'publish' });
    expect(await counts()).toEqual({ Art: 1, Music: 2 });
    await write('PATCH', `/events/${a.id}`, { categories: ['Art'] });
    expect(await counts()).toEqual({ Art: 1, Music: 1 });
    expect((await t().request({ url: `${API}/events/${b.id}` })).json.categories[0].count).toBe(1);
    await write('DELETE', `/events/${b.id}`);
    expect(await counts()).toEqual({ Art: 1, Music: 0 });
    expect((await t().request({ url: `${API}/categories` })).json.categories.map((c: { name: string }) => c.name)).toEqual(['Art']);
    await write('DELETE', `/events/${a.id}?force=true`);
    expect(await counts()).toEqual({ Art: 0, Music: 0 });
  });
});
