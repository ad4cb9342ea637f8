// The ES module entry point re-exports the CommonJS build, so both share one Session
// and one TuiDriverError class (instanceof works across import and require).
export * from './index.js';
