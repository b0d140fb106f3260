/// <reference types="vite/client" />

/** Build id written by vite.config.ts into the bundle and into dist/version.json. */
declare const __APP_BUILD_ID__: string;
