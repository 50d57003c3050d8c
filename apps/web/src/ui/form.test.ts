import { afterEach, describe, expect, test } from "vitest";
import { formData, formJson } from "./form";

function makeForm(html: string): HTMLFormElement {
  const form = document.createElement("form");
  form.innerHTML = html;
  document.body.append(form);
  return form;
}

afterEach(() => document.body.replaceChildren());

const FIELDS = `
  <input name="firstName" value="Ann">
  <input name="lastName" value="   ">
  <input name="email" value="">
  <input name="mrn" value="MRN-1" disabled>
  <input name="note" value="" disabled>
  <input name="address.state" value="TX" disabled>
  <input name="address.city" value="Plano">
  <select name="sex" disabled><option value="M">M</option><option value="F" selected>F</option></select>
  <select name="race"><option value="">Choose...</option></select>
  <select name="surveyIds" multiple>
    <option value="s1" selected>One</option><option value="s2">Two</option><option value="s3" selected>Three</option>
  </select>
  <input type="checkbox" name="consent" checked disabled>
  <input type="checkbox" name="optOut">
  <input type="radio" name="lang" value="en">
  <input type="radio" name="lang" value="es" checked>
  <textarea name="comments" disabled>Seen today</textarea>
  <fieldset disabled><input name="tenant" value="demo"></fieldset>
  <button type="submit" name="save" value="1">Save</button>
`;

describe("formJson", () => {
  test("omits blank values and still includes disabled fields", () => {
    const form = makeForm(FIELDS);
    expect(formJson(form)).toEqual({
      firstName: "Ann",
      mrn: "MRN-1",
      address: { state: "TX", city: "Plano" },
      sex: "F",
      surveyIds: ["s1", "s3"],
      consent: "on",
      lang: "es",
      comments: "Seen today",
      tenant: "demo",
    });
  });

  test("sends what is in the form at submit time", () => {
    const form = makeForm(FIELDS);
    const sent: Record<string, unknown>[] = [];
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      sent.push(formJson(event.currentTarget as HTMLFormElement));
    });
    const mrn = form.elements.namedItem("mrn") as HTMLInputElement;
    mrn.value = "MRN-2";
    (form.elements.namedItem("email") as HTMLInputElement).value = "ann@example.org";
    (form.elements.namedItem("firstName") as HTMLInputElement).value = "";
    form.requestSubmit(form.querySelector("button"));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ mrn: "MRN-2", email: "ann@example.org", tenant: "demo" });
    expect(sent[0]).not.toHaveProperty("firstName");
    expect(sent[0]).not.toHaveProperty("save");
  });
});

describe("formData", () => {
  test("collects what FormData collects, plus the disabled fields", () => {
    const form = makeForm(FIELDS);
    const standard = [...new FormData(form)];
    const ours = [...formData(form)];
    // The browser's FormData leaves disabled fields out; ours keeps them, in document order.
    expect(standard.map(([name]) => name)).not.toContain("mrn");
    expect(ours.filter((entry) => !standard.some(([n, v]) => n === entry[0] && v === entry[1]))).toEqual([
      ["mrn", "MRN-1"],
      ["note", ""],
      ["address.state", "TX"],
      ["sex", "F"],
      ["consent", "on"],
      ["comments", "Seen today"],
      ["tenant", "demo"],
    ]);
    expect(ours.filter((entry) => standard.some(([n, v]) => n === entry[0] && v === entry[1]))).toEqual(
      standard,
    );
    expect(formData(form).has("save")).toBe(false);
  });
});
