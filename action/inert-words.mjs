// Prints its arguments as one shell-quoted line made inert by the harness's own inertText: a line break, a control
// character or a workflow command an input holds is shown, never obeyed by the runner that reads the log.
const { register } = await import("tsx/esm/api");
register();
const { inertText } = await import("../transport/untrusted-text.ts");

const word = (text) => (/^[\w./=:,@%+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`);
process.stdout.write(`${inertText(process.argv.slice(2).map(word).join(" "))}\n`);
