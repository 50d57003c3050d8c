import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { createIdGenerator, isObjectId, objectId, objectIdTime, objectIdTimestamp } from "./object-id.js";

const fixed = (seconds: number) => () => seconds * 1000;

describe("createIdGenerator", () => {
  test("lays out seconds, machine id, process id and counter", () => {
    const generator = createIdGenerator({
      now: fixed(0x65a1b2c3),
      machineId: 0xabcdef,
      processId: 0x1234,
      counterStart: 0x000010,
    });
    expect(generator.objectId()).toBe("65a1b2c3" + "abcdef" + "1234" + "000011");
    expect(generator.objectId()).toBe("65a1b2c3abcdef1234000012");
  });

  test("borrows the next second when the counter runs out within one second", () => {
    const generator = createIdGenerator({
      now: fixed(100),
      machineId: 1,
      processId: 2,
      counterStart: 0xfffffe,
    });
    const first = generator.objectId();
    const second = generator.objectId();
    expect(first).toBe("00000064" + "000001" + "0002" + "ffffff");
    expect(second).toBe("00000065" + "000001" + "0002" + "000000");
    expect(second > first).toBe(true);
  });

  test("never goes backwards when the clock does", () => {
    let now = 2_000_000_000_000;
    const generator = createIdGenerator({ now: () => now, machineId: 7, processId: 7, counterStart: 5 });
    const before = generator.objectId();
    now -= 60_000;
    const after = generator.objectId();
    expect(after > before).toBe(true);
    expect(objectIdTimestamp(after).getTime()).toBe(2_000_000_000_000);
  });

  test("uses the given date as the timestamp", () => {
    const generator = createIdGenerator({ machineId: 0, processId: 0, counterStart: 0 });
    const id = generator.objectId(new Date("2020-02-03T04:05:06.789Z"));
    expect(objectIdTimestamp(id).toISOString()).toBe("2020-02-03T04:05:06.000Z");
  });

  test("draws machine id, process id and counter from the random source", () => {
    const values = [0.5, 0.25, 0];
    const generator = createIdGenerator({ now: fixed(1), random: () => values.shift() ?? 0 });
    expect(generator.objectId()).toBe("00000001" + "800000" + "4000" + "000001");
  });

  test("makes strictly increasing ids across many per second and a steady clock (property)", () => {
    fc.assert(
      fc.property(
        // The 4-byte seconds field ends in 2106; start early enough that 300 steps of up to 3 s stay within it.
        fc.integer({ min: 0, max: 0xffffffff - 1000 }),
        fc.integer({ min: 0, max: 0xffffff }),
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 300 }),
        (startSeconds, counterStart, steps) => {
          let now = startSeconds * 1000;
          const generator = createIdGenerator({ now: () => now, counterStart, machineId: 3, processId: 4 });
          let previous = "";
          for (const step of steps) {
            now += step;
            const id = generator.objectId();
            expect(isObjectId(id)).toBe(true);
            expect(id > previous).toBe(true);
            previous = id;
          }
        },
      ),
    );
  });
});

describe("objectId", () => {
  test("makes 100,000 unique, strictly increasing ids", () => {
    let previous = "";
    const seen = new Set<string>();
    for (let i = 0; i < 100_000; i++) {
      const id = objectId();
      expect(id > previous).toBe(true);
      previous = id;
      seen.add(id);
    }
    expect(seen.size).toBe(100_000);
  });

  test("stamps the current second", () => {
    const before = Math.floor(Date.now() / 1000);
    const seconds = objectIdTimestamp(objectId()).getTime() / 1000;
    expect(seconds).toBeGreaterThanOrEqual(before);
    expect(seconds).toBeLessThanOrEqual(before + 2);
  });

  test("round-trips any second through objectIdTimestamp (property)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), (seconds) => {
        const id = objectId(new Date(seconds * 1000));
        expect(isObjectId(id)).toBe(true);
        expect(objectIdTimestamp(id).getTime()).toBe(seconds * 1000);
        expect(objectIdTime(id).getTime()).toBe(seconds * 1000);
      }),
    );
  });
});

describe("isObjectId", () => {
  test.each([
    ["507f1f77bcf86cd799439011", true],
    ["000000000000000000000000", true],
    ["507F1F77BCF86CD799439011", false],
    ["507f1f77bcf86cd79943901", false],
    ["507f1f77bcf86cd7994390111", false],
    ["507f1f77bcf86cd79943901g", false],
    ["", false],
    [42, false],
    [null, false],
  ])("of %j is %s", (value, expected) => {
    expect(isObjectId(value)).toBe(expected);
  });
});
