import { expect, it } from 'vitest';
import { API, describeEachDialect } from '../helpers/test-app.ts';

describeEachDialect('/organizers', (t) => {
  const post = async (payload: Record<string, unknown>) => {
    const admin = await t().user('administrator');
    return t().request({ method: 'POST', url: `${API}/organizers`, headers: admin.headers, payload });
  };

  it('returns every key of the organizer record, empty ones as ""', async () => {
    const res = await post({ organizer: 'Jazz Club e.V.', phone: '+49 30 999', website: 'https://example.test/club', email: 'club@example.test' });
    expect(res.statusCode).toBe(201);
    const { id, author, date, date_utc, modified, modified_utc, global_id } = res.json;
    expect(res.json).toEqual({
      id, author, status: 'publish', date, date_utc, modified, modified_utc,
      url: 'http://cal.test/organizer/jazz-club-e-v/', organizer: 'Jazz Club e.V.', description: '', excerpt: '',
      slug: 'jazz-club-e-v', image: false, phone: '+49 30 999', website: 'https://example.test/club',
      email: 'club@example.test', global_id, global_id_lineage: [global_id],
    });
    const single = await t().request({ url: `${API}/organizers/by-slug/jazz-club-e-v` });
    expect(single.json.json_ld).toEqual({
      '@type': 'Person', name: 'Jazz Club e.V.', description: '', url: 'https://example.test/club',
      telephone: '+49 30 999', email: 'club@example.test', sameAs: 'https://example.test/club',
    });
  });

  it('does not format-check email (as the reference) but checks website', async () => {
    expect((await post({ organizer: 'A', email: 'not an email' })).statusCode).toBe(201);
    const bad = await post({ organizer: 'B', website: 'not a url' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json.data.params).toEqual({ website: 'Invalid parameter.' });
  });

  it('searches phone, email and website', async () => {
    await post({ organizer: 'Mail Org', email: 'hello@jazz.test' });
    await post({ organizer: 'Web Org', website: 'https://rock.test' });
    const names = async (search: string) =>
      (await t().request({ url: `${API}/organizers?search=${search}` })).json.organizers.map((o: { organizer: string }) => o.organizer);
    expect(await names('jazz')).toEqual(['Mail Org']);
    expect(await names('rock')).toEqual(['Web Org']);
  });
});
