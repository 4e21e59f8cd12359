import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";
import { resolve } from "node:path";
import { decorators, quietWarnings } from "./widgets/vite.config.ts";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

/**
 * Remix app build (admin pages and API resource routes). The widget bundle has its own config: widgets/vite.config.ts.
 * The server-rendered snippets (app/lib/snippets.server.ts) import the widgets' sources: same decorator transform.
 */
export default defineConfig({
  plugins: [
    decorators,
    !process.env.VITEST &&
      remix({
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_singleFetch: true,
          v3_lazyRouteDiscovery: true,
        },
      }),
  ],
  resolve: { alias: { "~": resolve(import.meta.dirname, "app") } },
  esbuild: { target: "es2022" },
  build: { target: "es2022", rollupOptions: { onwarn: quietWarnings } },
});
