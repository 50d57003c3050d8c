import { describe, expect, test } from "vitest";
import { csvRows } from "./map.js";

async function all<T>(rows: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

describe("csvRows", () => {
  test("writes answer columns at the engine's paths: dots nest, numbers make lists, reserved columns stay out", async () => {
    const [row] = await all(
      csvRows([
        "externalId,mrn,surveyId,pain.hadPain,meds.1.name,meds.0.name,__proto__.x\nx-1,M-1,s,yes,aspirin,statin,1\n",
      ]),
    );
    expect(row).toEqual({
      row: 1,
      externalId: "x-1",
      patientId: undefined,
      mrn: "M-1",
      surveyId: "s",
      answers: { pain: { hadPain: "yes" }, meds: [{ name: "statin" }, { name: "aspirin" }] },
    });
  });

  test("refuses a header naming a list position of 1,000 or more, naming content, before any row is read", async () => {
    await expect(all(csvRows(["externalId,mrn,surveyId,meds.1000.name\nx-1,M-1,s,a\n"]))).rejects.toThrow(
      'The column "meds.1000.name" names a list position of 1,000 or more.',
    );
  });
});
