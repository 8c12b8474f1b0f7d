import { expect, it } from 'vitest';
import { API, describeEachDialect } from '../helpers/test-app.ts';

describeEachDialect('/venues', (t) => {
  const post = async (payload: Record<string, unknown>) => {
    const admin = await t().user('administrator');
    return t().request({ method: 'POST', url: `${API}/venues`, headers: admin.headers, payload });
  };

  it('returns every key of the venue record, empty ones as ""', async () => {
    const res = await post({ venue: 'Blue Room', address: 'Hauptstr. 1', city: 'Berlin', country: 'Germany', zip: '10115', phone: '+49 30 1234' });
    expect(res.statusCode).toBe(201);
    const { id, author, date, date_utc, modified, modified_utc, global_id } = res.json;
    expect(res.json).toEqual({
      id, author, status: 'publish', date, date_utc, modified, modified_utc,
      url: 'http://cal.test/venue/blue-room/', venue: 'Blue Room', description: '', excerpt: '', slug: 'blue-room',
      image: false, address: 'Hauptstr. 1', city: 'Berlin', country: 'Germany', province: '', state: '', zip: '10115',
      phone: '+49 30 1234', website: '', stateprovince: '', geo_lat: null, geo_lng: null, show_map: true, show_map_link: true,
      global_id, global_id_lineage: [global_id],
    });
    expect(Object.keys(res.json)).toEqual([
      'id', 'author', 'status', 'date', 'date_utc', 'modified', 'modified_utc', 'url', 'venue', 'description', 'excerpt',
      'slug', 'image', 'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince',
      'geo_lat', 'geo_lng', 'show_map', 'show_map_link', 'global_id', 'global_id_lineage',
    ]);
  });

  it('gives a single read a schema.org Place', async () => {
    const created = await post({ venue: 'Blue Room', address: 'Hauptstr. 1', city: 'Berlin', website: 'https://blue.test' });
    const res = await t().request({ url: `${API}/venues/${created.json.id}` });
    expect(res.json.json_ld).toEqual({
      '@type': 'Place', name: 'Blue Room', description: '', url: 'https://blue.test',
      address: { '@type': 'PostalAddress', streetAddress: 'Hauptstr. 1', addressLocality: 'Berlin', addressRegion: '', postalCode: '', addressCountry: '' },
      telephone: '', sameAs: 'https://blue.test',
    });
  });

  it('derives stateprovince from state, then province, unless it is sent', async () => {
    expect((await post({ venue: 'S', state: 'NY', province: 'P' })).json.stateprovince).toBe('NY');
    expect((await post({ venue: 'P', province: 'Ontario' })).json.stateprovince).toBe('Ontario');
    expect((await post({ venue: 'X', state: 'NY', stateprovince: 'Own' })).json.stateprovince).toBe('Own');
    const created = await post({ venue: 'U', state: 'CA' });
    const admin = await t().user('administrator');
    const updated = await t().request({ method: 'PATCH', url: `${API}/venues/${created.json.id}`, headers: admin.headers, payload: { state: 'TX' } });
    expect(updated.json.stateprovince).toBe('TX');
  });

  it('keeps show_map flags unless sent; accepts yes/no/on/off/1/0', async () => {
    const created = await post({ venue: 'Flags', show_map: 'no', show_map_link: 'off' });
    expect(created.json).toMatchObject({ show_map: false, show_map_link: false });
    const admin = await t().user('administrator');
    const url = `${API}/venues/${created.json.id}`;
    const kept = await t().request({ method: 'PATCH', url, headers: admin.headers, payload: { city: 'Rome' } });
    expect(kept.json).toMatchObject({ show_map: false, show_map_link: false });
    const on = await t().request({ method: 'PATCH', url, headers: admin.headers, payload: { show_map: 'yes', show_map_link: 1 } });
    expect(on.json).toMatchObject({ show_map: true, show_map_link: true });
    const bad = await t().request({ method: 'PATCH', url, headers: admin.headers, payload: { show_map: 'maybe' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json.data.params).toEqual({ show_map: 'Invalid parameter.' });
  });

  it('searches name, description and address fields for every fragment, but not country', async () => {
    await post({ venue: 'Blue Room', city: 'Berlin', country: 'Germany' });
    await post({ venue: 'Red Hall', address: 'Main Street 5', zip: '10115' });
    const names = async (search: string) =>
      (await t().request({ url: `${API}/venues?search=${encodeURIComponent(search)}` })).json.venues.map((v: { venue: string }) => v.venue);
    expect(await names('blue')).toEqual(['Blue Room']);
    expect(await names('room blue')).toEqual(['Blue Room']);
    expect(await names('main street')).toEqual(['Red Hall']);
    expect(await names('101')).toEqual(['Red Hall']);
    expect(await names('Germany')).toEqual([]);
    expect(await names('blue main')).toEqual([]);
    expect(await names('100%')).toEqual([]);
    const linked = await t().request({ url: `${API}/venues?search=blue%20room&per_page=1` });
    expect(linked.json.rest_url).toContain('search=blue+room');
  });

  it('keeps the event date in the site time zone (CAL_TIMEZONE) and date_utc in UTC', async () => {
    const res = await post({ venue: 'Dated', date_utc: '2026-07-01 10:00:00' });
    expect(res.json.date_utc).toBe('2026-07-01 10:00:00');
    expect(res.json.date).toBe('2026-07-01 10:00:00');
  });
});

describeEachDialect('/venues in a site time zone', (t) => {
  it('reads `date` as site wall-clock time', async () => {
    const admin = await t().user('administrator');
    const res = await t().request({ method: 'POST', url: `${API}/venues`, headers: admin.headers, payload: { venue: 'Zoned', date: '2026-07-01 12:00:00' } });
    expect(res.json.date).toBe('2026-07-01 12:00:00');
    expect(res.json.date_utc).toBe('2026-07-01 10:00:00');
  });
}, { CAL_TIMEZONE: 'Europe/Berlin' });
