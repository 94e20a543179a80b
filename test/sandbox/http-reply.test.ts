import { describe, expect, it } from "vitest";
import { messageBody, reply, replyEmpty, replyJson } from "../../sandbox/http-reply.ts";
import { replyAnswer } from "../support/reply-server.ts";

describe("the sandbox's reply helpers", () => {
  it("reply writes the status, media type, extra headers and a Content-Length in bytes, not characters", async () => {
    const answer = await replyAnswer((res) =>
      reply(res, 418, "text/plain; charset=utf-8", "größe 🛒", { "x-extra": "1" }),
    );
    expect(answer.status).toBe(418);
    expect(answer.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(answer.headers["x-extra"]).toBe("1");
    expect(answer.headers["content-length"]).toBe("12");
    expect(answer.headers["transfer-encoding"]).toBeUndefined();
    expect(answer.text).toBe("größe 🛒");
  });

  it("reply's own Content-Length wins over one the caller passes", async () => {
    const answer = await replyAnswer((res) => reply(res, 200, "text/plain", "abc", { "content-length": 99 }));
    expect(answer.headers["content-length"]).toBe("3");
    expect(answer.text).toBe("abc");
  });

  it("replyJson sends application/json", async () => {
    const answer = await replyAnswer((res) => replyJson(res, 201, '{"a":1}', { location: "/x" }));
    expect(answer.status).toBe(201);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers.location).toBe("/x");
    expect(JSON.parse(answer.text)).toEqual({ a: 1 });
  });

  it("replyEmpty sends no body and no Content-Type", async () => {
    const answer = await replyAnswer((res) => replyEmpty(res, 204, { "retry-after": "1" }));
    expect(answer.status).toBe(204);
    expect(answer.headers["content-type"]).toBeUndefined();
    expect(answer.headers["retry-after"]).toBe("1");
    expect(answer.text).toBe("");
  });

  it("messageBody is production's {Message} shape, any text escaped as JSON", () => {
    expect(JSON.parse(messageBody('say "hi"\n</script>'))).toEqual({ Message: 'say "hi"\n</script>' });
    expect(messageBody("x")).toBe('{"Message":"x"}');
  });
});
