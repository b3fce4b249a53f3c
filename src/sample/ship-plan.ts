// The sample game's world: the ship Meridian, its decks, rooms, crew and opening facts. Everything the sample
// SUT must reason about spatially ("do I change decks to get from engineering to the mess hall?") is here.

/** A room aboard the ship. */
export interface PlannedLocation {
  name: string;
  deck: number;
  description: string;
  parent?: string;
  tags: string[];
}

/** A way between two rooms, usable both ways. */
export interface PlannedConnection {
  from: string;
  to: string;
  kind: 'corridor' | 'ladder' | 'lift' | 'hatch';
  minutes: string;
}

/** A crew member. */
export interface PlannedCharacter {
  name: string;
  role: string;
  location: string;
  hitPoints: number;
  maxHitPoints: number;
  traits: Record<string, unknown>;
}

/** The ship's decks, numbered from the top. */
export const DECKS: readonly { number: number; name: string }[] = [
  { number: 1, name: 'Command' },
  { number: 2, name: 'Habitation' },
  { number: 3, name: 'Engineering' },
  { number: 4, name: 'Cargo' },
];

/** Every room, with the deck it is on. */
export const LOCATIONS: readonly PlannedLocation[] = [
  {
    name: 'Bridge',
    deck: 1,
    description: "Curved consoles under a cracked viewport; the captain's chair faces the dark.",
    tags: ['command', 'viewport'],
  },
  {
    name: 'Ready Room',
    deck: 1,
    parent: 'Bridge',
    description: 'A cramped office behind the bridge, smelling of old coffee.',
    tags: ['command', 'private'],
  },
  {
    name: 'Comms Alcove',
    deck: 1,
    parent: 'Bridge',
    description: 'A nook of blinking relays and a headset on a hook.',
    tags: ['command', 'signals'],
  },
  {
    name: 'Mess Hall',
    deck: 2,
    description: 'Long steel tables, a humming galley and a coffee machine that never cools.',
    tags: ['habitation', 'food', 'social'],
  },
  {
    name: 'Crew Berths',
    deck: 2,
    description: 'Stacked bunks behind privacy curtains, lockers along the wall.',
    tags: ['habitation', 'rest'],
  },
  {
    name: 'Medbay',
    deck: 2,
    description: 'Two beds, a surgical arm and a cabinet of labelled vials.',
    tags: ['habitation', 'medical'],
  },
  {
    name: 'Observation Lounge',
    deck: 2,
    description: 'A quiet room with a wide window onto the stars.',
    tags: ['habitation', 'viewport', 'social'],
  },
  {
    name: 'Engineering',
    deck: 3,
    description: 'Pipes and catwalks around the drive controls; everything vibrates.',
    tags: ['engineering', 'loud'],
  },
  {
    name: 'Reactor Core',
    deck: 3,
    parent: 'Engineering',
    description: 'The shielded heart of the ship, behind a yellow-striped door.',
    tags: ['engineering', 'hazard'],
  },
  {
    name: 'Machine Shop',
    deck: 3,
    description: 'Lathes, a welding bench and racks of spare parts.',
    tags: ['engineering', 'tools'],
  },
  { name: 'Cargo Bay', deck: 4, description: 'Mag-locked crates in rows under harsh work lights.', tags: ['cargo'] },
  {
    name: 'Airlock',
    deck: 4,
    description: 'A double-doored chamber with suits on the wall.',
    tags: ['cargo', 'hazard', 'exit'],
  },
  {
    name: 'Shuttle Hangar',
    deck: 4,
    description: 'The shuttle Wren rests in its cradle, fuel lines attached.',
    tags: ['cargo', 'vehicle'],
  },
];

/** How rooms connect: corridors within a deck, ladders, a hatch and the lift between decks. */
export const CONNECTIONS: readonly PlannedConnection[] = [
  { from: 'Bridge', to: 'Ready Room', kind: 'corridor', minutes: '0.50' },
  { from: 'Bridge', to: 'Comms Alcove', kind: 'corridor', minutes: '0.25' },
  { from: 'Mess Hall', to: 'Crew Berths', kind: 'corridor', minutes: '1.00' },
  { from: 'Mess Hall', to: 'Observation Lounge', kind: 'corridor', minutes: '1.50' },
  { from: 'Crew Berths', to: 'Medbay', kind: 'corridor', minutes: '0.75' },
  { from: 'Engineering', to: 'Reactor Core', kind: 'corridor', minutes: '0.50' },
  { from: 'Engineering', to: 'Machine Shop', kind: 'corridor', minutes: '1.25' },
  { from: 'Cargo Bay', to: 'Airlock', kind: 'corridor', minutes: '1.00' },
  { from: 'Cargo Bay', to: 'Shuttle Hangar', kind: 'corridor', minutes: '1.75' },
  { from: 'Bridge', to: 'Observation Lounge', kind: 'ladder', minutes: '2.00' },
  { from: 'Crew Berths', to: 'Engineering', kind: 'ladder', minutes: '2.50' },
  { from: 'Mess Hall', to: 'Engineering', kind: 'lift', minutes: '3.00' },
  { from: 'Machine Shop', to: 'Cargo Bay', kind: 'hatch', minutes: '2.25' },
];

/** The crew, where each one starts. */
export const CHARACTERS: readonly PlannedCharacter[] = [
  {
    name: 'Captain Ines Okafor',
    role: 'captain',
    location: 'Bridge',
    hitPoints: 14,
    maxHitPoints: 16,
    traits: { mood: 'guarded', loyalty: 0.9, secrets: ['the distress call'] },
  },
  {
    name: 'Tomas Reyes',
    role: 'chief engineer',
    location: 'Engineering',
    hitPoints: 12,
    maxHitPoints: 12,
    traits: { mood: 'tired', loyalty: 0.6, habits: ['hums while working'] },
  },
  {
    name: 'Dr. Mara Hale',
    role: 'medic',
    location: 'Medbay',
    hitPoints: 9,
    maxHitPoints: 10,
    traits: { mood: 'calm', loyalty: 0.8 },
  },
  {
    name: 'Juno Park',
    role: 'pilot',
    location: 'Shuttle Hangar',
    hitPoints: 11,
    maxHitPoints: 11,
    traits: { mood: 'restless', loyalty: 0.7 },
  },
  {
    name: 'Bex Adeyemi',
    role: 'quartermaster',
    location: 'Cargo Bay',
    hitPoints: 13,
    maxHitPoints: 15,
    traits: { mood: 'suspicious', loyalty: 0.4 },
  },
  {
    name: 'ORACLE',
    role: 'ship intelligence',
    location: 'Comms Alcove',
    hitPoints: 1,
    maxHitPoints: 1,
    traits: { mood: null, voice: 'flat' },
  },
];

/** What the Warden tells the player before the first turn. */
export const OPENING_NARRATION = [
  'The Meridian drifts three weeks out from Calloway Station, running dark after a distress call nobody will explain.',
  'She has four decks. Deck 1, Command, holds the bridge, the ready room and the comms alcove. Deck 2, Habitation,',
  'holds the mess hall, the crew berths, the medbay and the observation lounge. Deck 3, Engineering, holds engineering,',
  'the reactor core and the machine shop. Deck 4, Cargo, holds the cargo bay, the airlock and the shuttle hangar.',
  'A ladder runs from the crew berths down to engineering, the lift joins the mess hall and engineering, and a hatch',
  "drops from the machine shop to the cargo bay. You are the ship's new systems officer. You wake in the crew berths.",
].join('\n');

/** Facts true from the start (introduced before turn 1). */
export const OPENING_FACTS: readonly { subject: string; fact: string; certainty: string; details: unknown }[] = [
  {
    subject: 'Mess Hall',
    fact: 'The mess hall is on deck 2 (Habitation), next to the crew berths.',
    certainty: '1.000',
    details: { deck: 2 },
  },
  {
    subject: 'Engineering',
    fact: 'Engineering is on deck 3; the lift and the ladder from the crew berths reach it.',
    certainty: '1.000',
    details: { deck: 3 },
  },
  {
    subject: 'Bridge',
    fact: 'The bridge is on deck 1 and only the captain may enter the ready room.',
    certainty: '1.000',
    details: { deck: 1 },
  },
  {
    subject: 'Distress call',
    fact: 'Three weeks ago the Meridian answered a distress call; the log entry is sealed.',
    certainty: '0.750',
    details: 'sealed by captain',
  },
  { subject: 'Reactor', fact: 'The reactor runs hot since the last jump.', certainty: '0.875', details: null },
];
