import { isDeepStrictEqual } from 'node:util';
import { base, en, Faker, generateMersenne53Randomizer } from '@faker-js/faker';
import { faker as englishFaker } from '@faker-js/faker/locale/en';
import { describe, expect, it } from 'vitest';

// Fakes.load builds its Faker from `@faker-js/faker/locale/en` (4 files) instead of the package's index (every
// locale, 81 files): `new (englishFaker.constructor)({ locale: englishFaker.rawDefinitions })`. A fixture's fakes are
// part of its output, so that Faker must give what `new Faker({ locale: [en, base] })` gives, call for call.

/** The calls Fakes makes (fake-values.ts), in a fixed mixed order, from one seeded sequence. */
function draws(faker: Faker): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < 300; i++) {
    const firstName = faker.person.firstName();
    const lastName = faker.person.lastName();
    out.push(firstName, lastName, faker.internet.username({ firstName, lastName }));
    out.push(faker.helpers.arrayElement(['example.com', 'example.org', 'example.net']));
    out.push(faker.lorem.word({ length: 1 + (i % 14), strategy: 'closest' }), faker.lorem.word());
  }
  return out;
}

describe("Fakes' Faker from the English entry point", () => {
  const Lean = englishFaker.constructor as typeof Faker;

  it('has the same merged definitions as en + base from the index', () => {
    const full = new Faker({ locale: [en, base] });
    expect(isDeepStrictEqual(englishFaker.rawDefinitions, full.rawDefinitions)).toBe(true);
    expect(Lean).toBe(Faker);
  });

  it('draws the same names, usernames, picks and words from the same randomizer', () => {
    for (const seed of [1, 42, 20261203]) {
      const full = new Faker({ locale: [en, base], randomizer: generateMersenne53Randomizer(seed) });
      const lean = new Lean({ locale: englishFaker.rawDefinitions, randomizer: generateMersenne53Randomizer(seed) });
      const expected = draws(full);
      expect(expected.length).toBe(1800);
      expect(draws(lean)).toEqual(expected);
    }
  });
});
