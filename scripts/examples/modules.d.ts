/** Frameworks the docs show the SDK beside, which this project does not install: typed as any. */
declare module 'express';
