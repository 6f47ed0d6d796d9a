import { expect, test } from "bun:test";
import { passageDecides } from "../../src/domain/supersession/claim.ts";

/** The rule as it was written first: one sentence after trimming, as readClaims splits sentences. */
const bySplit = (text: string) => text.trim().split(/(?<=[.!?…])\s+(?=\p{Lu})/u).length === 1;

test("passageDecides: one sentence decides, several do not, surrounding whitespace aside", () => {
  const texts = [
    "Alice works at Acme.",
    "Alice works at Acme. Bob works at Initech.",
    "  Alice works at Acme.  ",
    "\n\nAlice works at Acme.\n",
    "Alice works at Acme.\nBob works at Initech.",
    "Alice works at acme. bob works there too.",
    "Алиса работает в «Роге». Боб — в «Копыте».",
    "Он ушёл… Она осталась.",
    "Why? Because.",
    "",
    "   ",
    ". A",
    "Done.   Next",
  ];
  for (const t of texts) expect(passageDecides(t)).toBe(bySplit(t));
  expect(passageDecides("Alice works at Acme.")).toBe(true);
  expect(passageDecides("Alice works at Acme. Bob works at Initech.")).toBe(false);
});
