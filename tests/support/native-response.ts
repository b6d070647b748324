// The integration layer shares loaded modules between files (isolate: false). A file that starts a
// Node listener lets @hono/node-server replace the global Request and Response with its lightweight
// ones, whose Response rebuilds itself from its first init once the body is read and so forgets
// headers set afterwards (the security set): a test reading headers after the body would then see
// them missing, depending on which file ran first. Every file starts with the runtime's own classes.
const g = globalThis as typeof globalThis & { __nativeFetchClasses?: { Request: typeof Request; Response: typeof Response } };
g.__nativeFetchClasses ??= { Request: globalThis.Request, Response: globalThis.Response };
globalThis.Request = g.__nativeFetchClasses.Request;
globalThis.Response = g.__nativeFetchClasses.Response;
