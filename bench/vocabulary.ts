// Word lists and a seeded random source: the same --events count always seeds the same calendar.

/** mulberry32: small, fast and good enough to spread data; a fixed seed keeps runs comparable. */
export function createRandom(seed = 20240601) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  /** `count` distinct items (count <= items.length). */
  const sample = <T>(items: readonly T[], count: number): T[] => {
    const chosen = new Set<T>();
    while (chosen.size < count) chosen.add(pick(items));
    return [...chosen];
  };
  return { next, int, pick, sample, chance: (p: number) => next() < p };
}

export type Random = ReturnType<typeof createRandom>;

export const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'Australia/Sydney'] as const;

/** Event titles are `<season> <theme> <kind>`: search words (themes) each match about 1 event in 30. */
export const SEASONS = [
  'Spring', 'Summer', 'Autumn', 'Winter', 'Midnight', 'Sunday', 'Morning', 'Evening', 'Late', 'Grand',
  'Open', 'Annual', 'Weekly', 'Monthly', 'Little', 'Big', 'Urban', 'Riverside', 'Rooftop', 'Garden',
];
export const THEMES = [
  'Jazz', 'Blues', 'Rock', 'Folk', 'Opera', 'Poetry', 'Comedy', 'Dance', 'Film', 'Photography',
  'Pottery', 'Coding', 'Chess', 'Yoga', 'Running', 'Cycling', 'Wine', 'Coffee', 'Cheese', 'Baking',
  'Robotics', 'Astronomy', 'History', 'Science', 'Theatre', 'Painting', 'Salsa', 'Tango', 'Choir', 'Vinyl',
];
export const KINDS = [
  'Night', 'Workshop', 'Festival', 'Meetup', 'Concert', 'Class', 'Tour', 'Market', 'Talk', 'Session',
  'Jam', 'Fair', 'Party', 'Screening', 'Club',
];

export const CITIES = [
  { city: 'Berlin', country: 'Germany', zip: '10115', province: 'Berlin', lat: 52.52, lng: 13.405 },
  { city: 'Munich', country: 'Germany', zip: '80331', province: 'Bavaria', lat: 48.1374, lng: 11.5755 },
  { city: 'New York', country: 'United States', zip: '10001', province: 'NY', lat: 40.7128, lng: -74.006 },
  { city: 'Boston', country: 'United States', zip: '02108', province: 'MA', lat: 42.3601, lng: -71.0589 },
  { city: 'Tokyo', country: 'Japan', zip: '100-0001', province: 'Tokyo', lat: 35.6762, lng: 139.6503 },
  { city: 'Osaka', country: 'Japan', zip: '530-0001', province: 'Osaka', lat: 34.6937, lng: 135.5023 },
  { city: 'Sydney', country: 'Australia', zip: '2000', province: 'NSW', lat: -33.8688, lng: 151.2093 },
  { city: 'Melbourne', country: 'Australia', zip: '3000', province: 'VIC', lat: -37.8136, lng: 144.9631 },
  { city: 'London', country: 'United Kingdom', zip: 'EC1A 1BB', province: '', lat: 51.5074, lng: -0.1278 },
  { city: 'Zürich', country: 'Switzerland', zip: '8001', province: 'ZH', lat: 47.3769, lng: 8.5417 },
];
export const PLACES = ['Hall', 'Club', 'Gallery', 'Park', 'Library', 'Studio', 'Arena', 'Loft', 'Café', 'Theatre'];
export const STREETS = ['Main St', 'Hauptstraße', 'Harbour Rd', 'Market Sq', 'King St', 'Ginza', 'Park Ave', 'Bridge Ln'];
export const FIRST_NAMES = ['Ada', 'Ben', 'Chloé', 'Dmitri', 'Emma', 'Finn', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kai', 'Lena'];
export const LAST_NAMES = ['Meyer', 'Smith', 'Tanaka', 'Brown', 'Müller', 'Garcia', 'Kim', 'Rossi', 'Nguyen', 'Novak'];

/** Ten parent categories, four children each (50 in all: the issue's ~50). */
export const CATEGORY_TREE: Record<string, string[]> = {
  Music: ['Jazz & Blues', 'Rock & Pop', 'Classical', 'Electronic'],
  Arts: ['Painting', 'Sculpture', 'Photography', 'Crafts'],
  Stage: ['Theatre', 'Comedy', 'Dance', 'Opera'],
  Film: ['Cinema', 'Documentary', 'Animation', 'Shorts'],
  Food: ['Tasting', 'Cooking Class', 'Street Food', 'Wine & Beer'],
  Sports: ['Running', 'Cycling', 'Yoga', 'Climbing'],
  Learning: ['Lecture', 'Language', 'Technology', 'Science'],
  Family: ['Kids', 'Teens', 'Seniors', 'Parents'],
  Community: ['Volunteering', 'Neighbourhood', 'Faith', 'Politics'],
  Business: ['Networking', 'Startups', 'Careers', 'Conference'],
};

const TAG_HEADS = ['outdoor', 'indoor', 'free', 'ticketed', 'accessible', 'family', 'late', 'early', 'live', 'online',
  'local', 'vegan', 'english', 'german', 'japanese', 'beginner', 'advanced', 'charity', 'student', 'premium'];
const TAG_TAILS = ['entry', 'friendly', 'only', 'event', 'seating', 'night', 'session', 'special', 'pick', 'series'];
/** 200 tags: every head with every tail. */
export const TAGS = TAG_HEADS.flatMap((head) => TAG_TAILS.map((tail) => `${head} ${tail}`));

const SENTENCES = [
  'Join us for an evening of great company and good conversation.',
  'Doors open thirty minutes before the start; seating is first come, first served.',
  'Bring a friend, or come along and meet new ones: everyone is welcome.',
  'Light refreshments are included, with vegetarian and vegan options.',
  'The venue is step-free and has an induction loop; tell us if you need anything else.',
  'Our hosts have run this series for years and know how to keep it lively.',
  'Tickets sell out quickly, so plan ahead and arrive early.',
  'Photos may be taken during the event and shared on our channels.',
  'Please check the weather before you set out: part of the programme is outdoors.',
  'Kids under twelve go free when accompanied by an adult.',
];

/** Raw descriptions as an editor would type them: a few paragraphs, some with a link or emphasis. */
export function rawDescriptions(random: Random, count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    const paragraphs = Array.from({ length: random.int(1, 3) }, () =>
      Array.from({ length: random.int(2, 4) }, () => random.pick(SENTENCES)).join(' '),
    );
    if (i % 3 === 0) paragraphs.push('More at <a href="https://example.org/info">our website</a>, <em>see you there</em>!');
    return paragraphs.join('\n\n');
  });
}
