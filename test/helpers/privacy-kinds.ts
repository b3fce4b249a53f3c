/**
 * The kinds of players' data and secrets tried against the detector, each with a made-up example and what catches
 * it; the privacy guide's table "Kinds tried and caught" is this list (test/unit/privacy-kinds.test.ts holds both).
 */
export interface TriedKind {
  kind: string;
  example: string;
  /** What the detector reports (`kindsByValue`): the first kind it names. */
  caught: 'secret' | 'email' | 'ip' | 'phone' | 'address' | 'birth';
}

export const TRIED_KINDS: readonly TriedKind[] = [
  { kind: 'email address', example: 'write to dana.k@mailbox.org', caught: 'email' },
  { kind: 'email in capitals', example: 'DANA.K@MAILBOX.ORG', caught: 'email' },
  { kind: 'internationalised email', example: 'dana@bücher.de', caught: 'email' },
  { kind: 'IPv4 address', example: 'from 203.0.113.77', caught: 'ip' },
  { kind: 'IPv6 address', example: 'at 2001:db8:85a3::8a2e:370:7334', caught: 'ip' },
  { kind: 'UK phone number', example: '+44 20 7946 0958', caught: 'phone' },
  { kind: 'German mobile number', example: '+4915112345678', caught: 'phone' },
  { kind: 'US phone number', example: '(555) 123-4567', caught: 'phone' },
  { kind: 'UK mobile number', example: '07700 900123', caught: 'phone' },
  { kind: 'French phone number', example: '06 12 34 56 78', caught: 'phone' },
  { kind: 'French phone number with dots', example: '06.12.34.56.78', caught: 'phone' },
  { kind: 'French phone number, international', example: '+33 6 12 34 56 78', caught: 'phone' },
  { kind: 'English street address', example: '221B Baker Street', caught: 'address' },
  { kind: 'street address in lower case', example: 'I live at 42 maple street', caught: 'address' },
  { kind: 'French street address', example: '12 rue de Rivoli', caught: 'address' },
  { kind: 'French address with bis', example: '3 bis avenue Foch', caught: 'address' },
  { kind: 'Spanish street address', example: '7 calle Mayor', caught: 'address' },
  { kind: 'German street address', example: 'Hauptstraße 5', caught: 'address' },
  { kind: 'date of birth', example: 'born on 14/03/1990', caught: 'birth' },
  { kind: 'date of birth, spelled', example: 'DOB: March 14, 1990', caught: 'birth' },
  { kind: 'bearer token', example: 'Bearer abcdefghijklmnop1234', caught: 'secret' },
  { kind: 'OpenAI-style key', example: 'sk-abcdefghijklmnopqrstuv', caught: 'secret' },
  { kind: 'Stripe key', example: 'sk_live_abcdefghijklmnop', caught: 'secret' },
  { kind: 'JSON web token', example: 'eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.c2lnbmF0dXJlMTIz', caught: 'secret' },
  { kind: 'private key block', example: '-----BEGIN RSA PRIVATE KEY-----', caught: 'secret' },
  { kind: 'GitHub token', example: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', caught: 'secret' },
  { kind: 'AWS access key id', example: 'AKIAABCDEFGHIJKLMNOP', caught: 'secret' },
  { kind: 'Slack token', example: 'xoxb-1234567890-abcdefghij', caught: 'secret' },
  {
    kind: 'Slack webhook URL',
    example: 'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX',
    caught: 'secret',
  },
  { kind: 'Google API key', example: 'AIzaSyA1234567890abcdefghijklmnopqrstuv', caught: 'secret' },
  { kind: 'password in a postgres URL', example: 'postgres://app:hunter2pw@db.internal/game', caught: 'secret' },
  { kind: 'password in a redis URL', example: 'redis://:s3cretpw@cache:6379', caught: 'secret' },
];

/** Game text the detector must leave alone: numbers, versions, dice, times, coordinates, reserved addresses. */
export const LEFT_ALONE: readonly string[] = [
  'At 19:30:00 on 2026-03-14 the lift reaches deck 3.',
  'Version 1.2.3 of the drive, room 101, 2d6 damage.',
  'You roll 12 and 7; the door code is 4471.',
  'Reyes was born to fly.',
  'Write to crew@example.org for the manifest.',
  'campaigns/10000000-0000-0000-0000-00000000000a/map.tif',
  'Roll 2d6+3 and move 3 squares down the road.',
  'Coordinates 12 34 56: the wreck drifts.',
  'The score is 10 to 12 after 3 rounds.',
  'a sha256 of 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'Take the 2 lifts to deck 4, then walk the long road north.',
  'postgres://turnkit@127.0.0.1/test',
];

/** The privacy guide's table, as the list gives it. */
export function triedKindsTable(): string[] {
  return [
    '| kind | example (made up) | caught as |',
    '| --- | --- | --- |',
    ...TRIED_KINDS.map((entry) => `| ${entry.kind} | \`${entry.example}\` | ${entry.caught} |`),
  ];
}
