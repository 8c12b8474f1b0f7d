import { expect, it } from 'vitest';
import { parseFeed } from '../helpers/ical.ts';
import { API, describeEachDialect } from '../helpers/test-app.ts';

const PLACES = {
  berlin: { lat: 52.52, lng: 13.405 },
  potsdam: { lat: 52.3906, lng: 13.0645 },
  hamburg: { lat: 53.5511, lng: 9.9937 },
  // Either side of the antimeridian, 80 km apart.
  suva: { lat: -18.1248, lng: 178.4501 },
  taveuni: { lat: -16.85, lng: -179.97 },
};
type Place = keyof typeof PLACES;

/** Distances worked out another way than the service's haversine: the spherical law of cosines. */
function expectedKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }) {
  const r = Math.PI / 180;
  const cos = Math.sin(a.lat * r) * Math.sin(b.lat * r) + Math.cos(a.lat * r) * Math.cos(b.lat * r) * Math.cos((b.lng - a.lng) * r);
  return 6371.0088 * Math.acos(Math.min(1, cos));
}

describeEachDialect('geolocation: venue coordinates, circles, boxes and distances', (t) => {
  const admin = async () => (await t().user('administrator')).headers;
  const send = async (method: string, url: string, payload?: Record<string, unknown>) =>
    t().request({ method, url: `${API}${url}`, headers: await admin(), ...(payload ? { payload } : {}) });
  const ok = async (method: string, url: string, payload?: Record<string, unknown>) => {
    const res = await send(method, url, payload);
    expect(res.statusCode, JSON.stringify(res.json)).toBeLessThan(300);
    return res.json;
  };
  const get = async (url: string) => (await t().request({ url: `${API}${url}` })).json;

  /** A venue at each place, an event at each venue, and one event with no venue. */
  async function calendar() {
    const events: Record<string, number> = {};
    for (const [place, at] of Object.entries(PLACES)) {
      const venue = await ok('POST', '/venues', { venue: `Hall ${place}`, geo_lat: at.lat, geo_lng: at.lng });
      events[place] = (await ok('POST', '/events', { title: `Gig ${place}`, start_date: '2027-04-01 20:00:00', end_date: '2027-04-01 23:00:00', venue: venue.id })).id;
    }
    events.nowhere = (await ok('POST', '/events', { title: 'Gig nowhere', start_date: '2027-04-01 20:00:00', end_date: '2027-04-01 23:00:00' })).id;
    return events;
  }
  const titles = (list: { events: Array<{ title: string }> }) => list.events.map((e) => e.title);
  const WINDOW = 'start_date=2027-03-01&end_date=2027-05-01';

  it('venues take coordinates, both or neither, in range, and return them (null when unset); json_ld carries them', async () => {
    const venue = await ok('POST', '/venues', { venue: 'Hall', geo_lat: 52.52, geo_lng: '13.405' });
    expect([venue.geo_lat, venue.geo_lng]).toEqual([52.52, 13.405]);
    expect((await get(`/venues/${venue.id}`)).json_ld.geo).toEqual({ '@type': 'GeoCoordinates', latitude: 52.52, longitude: 13.405 });
    const plain = await ok('POST', '/venues', { venue: 'Shed' });
    expect([plain.geo_lat, plain.geo_lng, plain.json_ld?.geo]).toEqual([null, null, undefined]);

    const half = await send('POST', `/venues/${plain.id}`, { geo_lat: 50 });
    expect([half.statusCode, half.json.code, Object.keys(half.json.data.params)]).toEqual([400, 'rest_invalid_param', ['geo_lng']]);
    for (const [field, value] of [['geo_lat', 90.5], ['geo_lng', -181], ['geo_lat', 'north']] as const) {
      const bad = await send('POST', `/venues/${venue.id}`, { [field]: value });
      expect([bad.statusCode, Object.keys(bad.json.data.params)]).toEqual([400, [field]]);
    }
    expect((await get(`/venues/${venue.id}`)).geo_lat).toBe(52.52); // nothing stored by a rejected write
    const cleared = await ok('POST', `/venues/${venue.id}`, { geo_lat: '', geo_lng: null });
    expect([cleared.geo_lat, cleared.geo_lng]).toEqual([null, null]);
    // An event embeds its venue's coordinates.
    const moved = await ok('POST', `/venues/${venue.id}`, { geo_lat: -33.8688, geo_lng: 151.2093 });
    const event = await ok('POST', '/events', { title: 'Gig', start_date: '2027-04-01 20:00:00', end_date: '2027-04-01 22:00:00', venue: moved.id });
    expect([event.venue.geo_lat, event.venue.geo_lng]).toEqual([-33.8688, 151.2093]);
  });

  it('geoloc=true lists events at a located venue, geoloc=false the others', async () => {
    await calendar();
    expect(titles(await get(`/events?${WINDOW}&geoloc=true&per_page=50`)).sort()).toEqual(['Gig berlin', 'Gig hamburg', 'Gig potsdam', 'Gig suva', 'Gig taveuni']);
    expect(titles(await get(`/events?${WINDOW}&geoloc=false`))).toEqual(['Gig nowhere']);
  });

  it('a circle lists what is within the radius, each with its distance; orderby=distance sorts by it', async () => {
    const events = await calendar();
    const near = await get(`/events?${WINDOW}&geoloc_lat=52.52&geoloc_lng=13.405&geoloc_radius=30&orderby=distance`);
    expect(titles(near)).toEqual(['Gig berlin', 'Gig potsdam']);
    near.events.forEach((event: { title: string; distance: number }) => {
      const place = event.title.replace('Gig ', '') as Place;
      expect(event.distance).toBeCloseTo(expectedKm(PLACES.berlin, PLACES[place]), 2);
    });
    expect(near.rest_url).toContain('geoloc_radius=30');
    // The default radius is 25 km: Potsdam (27 km) is out.
    expect(titles(await get(`/events?${WINDOW}&geoloc_lat=52.52&geoloc_lng=13.405`))).toEqual(['Gig berlin']);
    const far = await get(`/events?${WINDOW}&geoloc_lat=52.52&geoloc_lng=13.405&geoloc_radius=300&orderby=distance&order=desc`);
    expect(titles(far)).toEqual(['Gig hamburg', 'Gig potsdam', 'Gig berlin']);
    // At one venue, the soonest first; pages follow that order across venues.
    const berlinVenue = (await get(`/events/${events.berlin}`)).venue.id;
    const later = await ok('POST', '/events', { title: 'Gig berlin later', start_date: '2027-04-20 20:00:00', end_date: '2027-04-20 22:00:00', venue: berlinVenue });
    const sooner = await ok('POST', '/events', { title: 'Gig berlin sooner', start_date: '2027-03-02 20:00:00', end_date: '2027-03-02 22:00:00', venue: berlinVenue });
    const paged = async (page: number) => titles(await get(`/events?${WINDOW}&geoloc_lat=52.52&geoloc_lng=13.405&geoloc_radius=30&orderby=distance&per_page=2&page=${page}`));
    expect([...(await paged(1)), ...(await paged(2))]).toEqual(['Gig berlin sooner', 'Gig berlin', 'Gig berlin later', 'Gig potsdam']);
    for (const id of [later.id, sooner.id]) await send('DELETE', `/events/${id}?force=true`);
    // Across the antimeridian: Suva to Taveuni, one circle.
    const pacific = await get(`/events?${WINDOW}&geoloc_lat=${PLACES.suva.lat}&geoloc_lng=${PLACES.suva.lng}&geoloc_radius=300&orderby=distance`);
    expect(titles(pacific)).toEqual(['Gig suva', 'Gig taveuni']);
    expect(pacific.events[1].distance).toBeCloseTo(expectedKm(PLACES.suva, PLACES.taveuni), 2);
    // A record read on its own carries no distance.
    expect((await get(`/events/${events.berlin}`)).distance).toBeUndefined();
    // A protected event is listed blanked, and without the distance that would place its venue.
    await ok('POST', `/events/${events.potsdam}`, { password: 'members' });
    const blanked = (await get(`/events?${WINDOW}&geoloc_lat=52.52&geoloc_lng=13.405&geoloc_radius=30&orderby=distance`)).events;
    expect(blanked.map((e: { venue: unknown; distance?: number }) => [e.venue === undefined ? 'none' : Array.isArray(e.venue) ? 'blanked' : 'venue', e.distance !== undefined]))
      .toEqual([['venue', true], ['blanked', false]]);
    const unlocked = (await get(`/events?${WINDOW}&geoloc_lat=52.52&geoloc_lng=13.405&geoloc_radius=30&orderby=distance&password=members`)).events;
    expect(unlocked[1].distance).toBeCloseTo(expectedKm(PLACES.berlin, PLACES.potsdam), 2);
  });

  it('a box lists what is inside it, across the antimeridian too', async () => {
    await calendar();
    expect(titles(await get(`/events?${WINDOW}&geoloc_bbox=12,52,14,53`)).sort()).toEqual(['Gig berlin', 'Gig potsdam']);
    expect(titles(await get(`/events?${WINDOW}&geoloc_bbox=178,-20,-179,-15`)).sort()).toEqual(['Gig suva', 'Gig taveuni']);
  });

  it('venue lists take the same filters and distances', async () => {
    await calendar();
    const list = await get('/venues?geoloc_lat=52.52&geoloc_lng=13.405&geoloc_radius=300&orderby=distance');
    expect(list.venues.map((v: { venue: string }) => v.venue)).toEqual(['Hall berlin', 'Hall potsdam', 'Hall hamburg']);
    expect(list.venues[2].distance).toBeCloseTo(expectedKm(PLACES.berlin, PLACES.hamburg), 2);
    expect((await get('/venues?geoloc=true')).total).toBe(5);
    expect((await get('/organizers?geoloc_lat=1&geoloc_lng=1')).organizers).toBeDefined(); // not an organizer filter: ignored as unknown
  });

  it('bad geolocation input is a 400 naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['geoloc_lat=52.5', 'geoloc_lng'],
      ['geoloc_lng=13.4', 'geoloc_lat'],
      ['geoloc_radius=10', 'geoloc_radius'],
      ['geoloc_lat=52&geoloc_lng=13&geoloc_radius=0', 'geoloc_radius'],
      ['geoloc_lat=95&geoloc_lng=13', 'geoloc_lat'],
      ['geoloc_bbox=1,2,3', 'geoloc_bbox'],
      ['geoloc_bbox=1,50,3,40', 'geoloc_bbox'],
      ['orderby=distance', 'orderby'],
      ['geoloc=false&geoloc_bbox=1,2,3,4', 'geoloc'],
    ];
    for (const [query, param] of cases) {
      for (const list of ['/events', '/venues']) {
        const res = await t().request({ url: `${API}${list}?${query}` });
        expect([res.statusCode, res.json.code, Object.keys(res.json.data?.params ?? {})], `${list}?${query}`).toEqual([400, 'rest_invalid_param', [param]]);
      }
    }
  });

  it('the site list view takes the same filters; a bad one is a 400 page', async () => {
    await calendar();
    const page = await t().request({ url: `/events/list/?${WINDOW}&geoloc_lat=52.52&geoloc_lng=13.405&geoloc_radius=30` });
    expect(page.statusCode).toBe(200);
    expect(['Gig berlin', 'Gig potsdam', 'Gig hamburg'].map((title) => page.body.includes(title))).toEqual([true, true, false]);
    const bad = await t().request({ url: '/events/list/?geoloc_lat=52.52' });
    expect([bad.statusCode, bad.headers['content-type']]).toEqual([400, expect.stringContaining('text/html')]);
  });

  it('random circles and boxes anywhere on Earth find exactly the venues a brute force finds', async () => {
    // A seeded source: 120 venues in clusters (poles, the antimeridian, the equator included), 60 queries.
    let state = 20261123;
    const random = () => ((state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 4294967296);
    const around = [[0, 0], [52.5, 13.4], [-17, 179.9], [-17, -179.9], [89.9, 40], [-89.95, -120], [40.7, -74]];
    const venues: Array<{ id: number; lat: number; lng: number }> = [];
    for (let i = 0; i < 120; i++) {
      const [lat0, lng0] = around[i % around.length];
      const lat = Math.max(-90, Math.min(90, lat0 + (random() - 0.5) * 4));
      let lng = lng0 + (random() - 0.5) * 8;
      if (lng > 180) lng -= 360;
      if (lng < -180) lng += 360;
      const [rlat, rlng] = [Number(lat.toFixed(5)), Number(lng.toFixed(5))];
      venues.push({ id: (await ok('POST', '/venues', { venue: `Random ${i}`, geo_lat: rlat, geo_lng: rlng })).id, lat: rlat, lng: rlng });
    }
    const found = async (query: string) => {
      const list = await get(`/venues?per_page=50&${query}`);
      const ids = list.venues.map((v: { id: number }) => v.id);
      for (let page = 2; page <= list.total_pages; page++) ids.push(...(await get(`/venues?per_page=50&page=${page}&${query}`)).venues.map((v: { id: number }) => v.id));
      return new Set<number>(ids);
    };
    const mismatches: string[] = [];
    let inside = 0;
    for (let q = 0; q < 30; q++) {
      const [lat0, lng0] = around[q % around.length];
      const centre = { lat: Number(Math.max(-90, Math.min(90, lat0 + (random() - 0.5) * 3)).toFixed(4)), lng: Number(((lng0 + (random() - 0.5) * 6 + 540) % 360 - 180).toFixed(4)) };
      const radius = Number((1 + random() * 400).toFixed(2));
      const got = await found(`geoloc_lat=${centre.lat}&geoloc_lng=${centre.lng}&geoloc_radius=${radius}`);
      inside += got.size;
      for (const venue of venues) {
        const km = expectedKm(centre, venue);
        if (Math.abs(km - radius) < 1e-6) continue; // on the circle itself: either answer is right
        if ((km < radius) !== got.has(venue.id)) mismatches.push(`circle ${JSON.stringify(centre)} r=${radius}: venue ${venue.id} at ${km.toFixed(3)} km`);
      }
    }
    for (let q = 0; q < 30; q++) {
      const [lat0, lng0] = around[q % around.length];
      const south = Number(Math.max(-90, lat0 - random() * 3).toFixed(3));
      const north = Number(Math.min(90, south + random() * 4).toFixed(3));
      const west = Number((((lng0 - random() * 5) + 540) % 360 - 180).toFixed(3));
      const east = Number((((lng0 + random() * 5) + 540) % 360 - 180).toFixed(3));
      const got = await found(`geoloc_bbox=${west},${south},${east},${north}`);
      inside += got.size;
      for (const venue of venues) {
        const inLng = west <= east ? venue.lng >= west && venue.lng <= east : venue.lng >= west || venue.lng <= east;
        if ((venue.lat >= south && venue.lat <= north && inLng) !== got.has(venue.id)) mismatches.push(`box ${west},${south},${east},${north}: venue ${venue.id}`);
      }
    }
    expect(mismatches).toEqual([]);
    // The queries are not all empty, nor all everything: each side of each edge is tried.
    expect(inside).toBeGreaterThan(200);
    expect(inside).toBeLessThan(60 * 120 / 2);
  }, 120_000);

  it('the iCalendar feed carries GEO for an event at a located venue', async () => {
    await calendar();
    const res = await t().request({ url: `${API}/events?${WINDOW}&geoloc_bbox=12.9,52.3,13.6,52.6`, headers: { accept: 'text/calendar' } });
    expect(res.statusCode).toBe(200);
    // Read back with a real parser (RFC 5545 §3.8.1.6: GEO is latitude;longitude as two floats).
    const feed = parseFeed(res.body);
    expect(feed.events.map((event) => [event.summary, event.component.getFirstPropertyValue('geo')]).sort())
      .toEqual([['Gig berlin', [52.52, 13.405]], ['Gig potsdam', [52.3906, 13.0645]]]);
  });
});
