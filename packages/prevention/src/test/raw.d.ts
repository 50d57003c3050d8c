/** Vite's `?raw` import: a file's text (the tests read the README this way, without Node's types). */
declare module "*?raw" {
  const text: string;
  export default text;
}
