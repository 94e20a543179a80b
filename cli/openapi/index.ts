// The openapi command's machinery: the document or one schema, built and written.
export { writeOpenapi } from "./write-openapi.ts";
