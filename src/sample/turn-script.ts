import { mulberry32 } from '../util/seeded-random.js';
import { CHARACTERS, CONNECTIONS, LOCATIONS } from './ship-plan.js';

/** Turn whose narration puts the mess hall on the wrong deck (the upstream error the demo corrects). */
export const MISLEADING_TURN = 19;
/** Turn where the player asks the way to the mess hall: the sample SUT gets it wrong after the misleading turn. */
export const PROBE_TURN = 23;
/** The wrong narration of the misleading turn, as played. */
export const MISLEADING_NARRATION =
  'You step out of engineering and walk the short corridor past the machine shop to the mess hall, here on deck 3. ' +
  'The coffee is bitter. A few minutes later you are back beside Reyes.';
/** What the misleading turn should have said: the mess hall is on deck 2, up the lift or the ladder. */
export const CORRECTED_NARRATION =
  'You ride the lift up from engineering to the mess hall on deck 2. ' +
  'The coffee is bitter. A few minutes later you ride back down to deck 3 and are beside Reyes again.';

/** One planned turn of a sample session. */
export interface PlannedTurn {
  turnNumber: number;
  input: string;
  narration: string;
  location: string;
  shipMinute: number;
  tokensUsed: number;
  diceRolls: number[] | null;
  /** A world fact this turn introduces. */
  fact?: { subject: string; fact: string; certainty: string; details: unknown };
}

/** Plans a session of `count` turns, deterministic for a seed: a walk around the ship with talk and looking around. */
export function planTurns(count: number, seed: number): PlannedTurn[] {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const turns: PlannedTurn[] = [];
  let location = 'Crew Berths';
  let minute = 0;
  for (let turnNumber = 1; turnNumber <= count; turnNumber++) {
    const scripted = count >= PROBE_TURN ? scriptedTurn(turnNumber) : undefined;
    let input: string;
    let narration: string;
    if (scripted) {
      [input, narration, location] = scripted;
    } else {
      const roll = random();
      if (roll < 0.5) {
        const [next, way] = pick(neighbours(location));
        [input, narration] = moveText(location, next, way);
        location = next;
      } else if (roll < 0.8) {
        const who = pick(CHARACTERS);
        const topic = pick(['the distress call', 'the reactor', 'the sealed log', 'the captain', 'the cargo manifest']);
        input = `I ask ${who.name} about ${topic}.`;
        narration = `${who.name} considers the question about ${topic}. "${pick(['Not here.', 'Ask the captain.', 'I have heard rumours.', 'Later, when we are alone.'])}"`;
      } else {
        const here = LOCATIONS.find((candidate) => candidate.name === location)!;
        input = 'I look around.';
        narration = `${here.description} You are in the ${here.name.toLowerCase()} on deck ${here.deck}.`;
      }
    }
    minute += 1 + Math.floor(random() * 6);
    const turn: PlannedTurn = {
      turnNumber,
      input,
      narration,
      location,
      shipMinute: minute,
      tokensUsed: 600 + Math.floor(random() * 1800),
      diceRolls: random() < 0.3 ? null : [1 + Math.floor(random() * 6), 1 + Math.floor(random() * 6)],
    };
    if (turnNumber % 9 === 0) turn.fact = plannedFact(turnNumber, random);
    turns.push(turn);
  }
  return turns;
}

function scriptedTurn(turnNumber: number): [string, string, string] | undefined {
  switch (turnNumber) {
    case 17:
      return [
        'I head down to engineering to check on Reyes.',
        'You make your way down to Engineering on deck 3. Reyes waves you over to the drive controls.',
        'Engineering',
      ];
    case 18:
      return [
        'I ask Reyes about the coolant leak.',
        'Reyes wipes his hands. "Pump three. I patched it, but it will not hold another jump."',
        'Engineering',
      ];
    case MISLEADING_TURN:
      return ['I go grab a coffee in the mess hall and come back.', MISLEADING_NARRATION, 'Engineering'];
    case 20:
      return [
        'I help Reyes bleed the coolant line.',
        'Together you bleed the line. The hiss fades and the gauges settle into the green.',
        'Engineering',
      ];
    case 21:
      return [
        'I ask Reyes where Dr. Hale is.',
        'Reyes jerks a thumb upward. "Hale was headed for the mess hall last I saw."',
        'Engineering',
      ];
    case 22:
      return [
        'I check the drive readouts.',
        'The readouts flicker but hold. The reactor is hot, as it has been since the jump.',
        'Engineering',
      ];
    case PROBE_TURN:
      return [
        'I leave engineering and go to the mess hall to find Dr. Hale. How do I get there?',
        'You ride the lift up to deck 2 and step into the mess hall, where Dr. Hale is nursing a cup of tea.',
        'Mess Hall',
      ];
    default:
      return undefined;
  }
}

function neighbours(location: string): [string, string][] {
  const result: [string, string][] = [];
  for (const connection of CONNECTIONS) {
    if (connection.from === location) result.push([connection.to, connection.kind]);
    if (connection.to === location) result.push([connection.from, connection.kind]);
  }
  return result;
}

function moveText(from: string, to: string, way: string): [string, string] {
  const a = LOCATIONS.find((location) => location.name === from)!;
  const b = LOCATIONS.find((location) => location.name === to)!;
  const input = `I go to the ${b.name.toLowerCase()}.`;
  if (a.deck === b.deck)
    return [
      input,
      `You walk the corridor from the ${a.name.toLowerCase()} to the ${b.name.toLowerCase()}, staying on deck ${a.deck}.`,
    ];
  const direction = b.deck > a.deck ? 'down' : 'up';
  return [
    input,
    `You take the ${way} ${direction} from deck ${a.deck} to deck ${b.deck} and step into the ${b.name.toLowerCase()}.`,
  ];
}

function plannedFact(turnNumber: number, random: () => number): NonNullable<PlannedTurn['fact']> {
  const details = [{ source: 'conversation', turn: turnNumber }, 'rumour', 3, null][turnNumber % 4];
  const subjects = ['Reactor', 'Cargo', 'Distress call', 'Shuttle Wren'];
  const subject = subjects[Math.floor(random() * subjects.length)]!;
  return {
    subject,
    fact: `Learned on turn ${turnNumber}: something new about the ${subject.toLowerCase()}.`,
    certainty: ['0.500', '0.625', '0.900'][turnNumber % 3]!,
    details,
  };
}
