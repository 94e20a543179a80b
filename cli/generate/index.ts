// The generate command's machinery: seeded events written as NDJSON.
export { writeEvents } from "./write-events.ts";
