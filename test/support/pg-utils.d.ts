// pg's own conversion of a value to the text it sends (pg ships no types for it).
declare module 'pg/lib/utils.js' {
  const utils: { prepareValue(value: unknown): unknown };
  export default utils;
}
