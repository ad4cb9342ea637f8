// The ES module entry point of `tuidriver/kern-engines` re-exports the CommonJS build, so
// both module systems share one PtySessionError class (instanceof works across them).
export * from './kern-engines.js';
