import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The dev server needs inline script and style, which index.html's strict meta policy forbids. While serving, the
 * meta tag is dropped and main's header (DEV_SERVER_CONTENT_SECURITY_POLICY in security.ts) is the policy; builds
 * keep the meta, under the same policy as a header from app-protocol.ts.
 */
function dropMetaPolicyWhileServing(): Plugin {
  return {
    name: 'payout-console:dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, ''),
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: fromRoot('out/main'),
      // Every package in `dependencies` (native addons, zod, the logger) loads from node_modules at run time, where
      // electron-builder ships it; test/unit/builder-config.test.ts checks that shipped code imports each one.
      externalizeDeps: true,
      // The CLI rides in the same bundle: it is the same core, run under Node by bin/payout-console.mjs. The export,
      // journal-verify, settlement-read and statement-PDF workers are entries of their own: electron/module-worker.ts
      // starts each from beside the main bundle.
      rolldownOptions: {
        input: {
          main: fromRoot('electron/main.ts'),
          cli: fromRoot('electron/cli/main.ts'),
          'export-worker': fromRoot('electron/export/worker.ts'),
          'journal-verify-worker': fromRoot('electron/journal/verify-worker.ts'),
          'settlement-read-worker': fromRoot('electron/cache/settlement-read-worker.ts'),
          'statement-pdf-worker': fromRoot('electron/import/pdf-worker.ts'),
        },
        // Shared chunks beside the entries, so `./export-worker.js` means the same file from any of them.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: fromRoot('out/preload'),
      // A sandboxed preload is one CommonJS file that may require only `electron`: bundle everything else.
      externalizeDeps: false,
      rolldownOptions: {
        input: { preload: fromRoot('electron/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: fromRoot('renderer'),
    plugins: [react(), dropMetaPolicyWhileServing()],
    build: {
      outDir: fromRoot('out/renderer'),
      // electron-vite leaves the renderer unminified; the bundle carries zod, so minifying halves what loads.
      minify: true,
      rolldownOptions: { input: fromRoot('renderer/index.html') },
    },
  },
});
