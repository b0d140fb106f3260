import { defineConfig, type Plugin, type ProxyOptions } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Dev server and build of the web app. `/api` goes to the server (PORT 8080) in dev and preview.
 * The build writes `dist/version.json` with the build id that is also compiled into the bundle
 * (`__APP_BUILD_ID__`), for the "page has been updated" check (src/app/version-check.ts).
 */
const buildId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

function versionFile(): Plugin {
  return {
    name: 'p8-version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'version.json',
        source: `${JSON.stringify({ buildId, builtAt: new Date().toISOString() })}\n`,
      });
    },
  };
}

// API_TARGET overrides the server address (e.g. a second server on another port).
const apiTarget = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.API_TARGET ?? 'http://localhost:8080';
const apiProxy: Record<string, ProxyOptions> = {
  '/api': { target: apiTarget, changeOrigin: true, ws: true },
};

export default defineConfig(({ command }) => ({
  plugins: [react(), versionFile()],
  define: {
    __APP_BUILD_ID__: JSON.stringify(command === 'build' ? buildId : 'dev'),
  },
  server: { port: 5173, proxy: apiProxy },
  preview: { port: 4173, proxy: apiProxy },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // entriesAware groups are named after every page that shares them ("antd~index~index~…", hundreds
        // of characters); the group's own name and the content hash are what tell chunks apart.
        chunkFileNames: (chunk) => `assets/${chunk.name.split('~')[0]}-[hash].js`,
        // Libraries change less often than the app: separate chunks stay cached across deploys.
        codeSplitting: {
          groups: [
            // The screens' texts, loaded after sign-in (locales/index.ts loadScreenTexts): one file, not 20.
            { name: 'texts', test: /src[\\/]locales[\\/](zh|en)[\\/](?!(common|error|login)\.ts$)[^\\/]+\.ts$/, priority: 50 },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/, priority: 40 },
            { name: 'echarts', test: /node_modules[\\/](echarts|zrender|echarts-for-react)[\\/]/, priority: 30 },
            // The sign-in form's pieces in one chunk whatever later screens use: entries-aware grouping split
            // them in two once some screen used one without the other (+1.7 KB on the sign-in page).
            { name: 'antd-form', test: /node_modules[\\/](antd[\\/]es[\\/](form|input)|@rc-component[\\/](form|input))[\\/]/, priority: 25 },
            // entriesAware: split by which pages use a component, so the login page does not load the shell's.
            { name: 'antd', test: /node_modules[\\/](antd|@ant-design|@rc-component|rc-[^\\/]+)[\\/]/, priority: 20, entriesAware: true },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 10, entriesAware: true },
          ],
        },
      },
    },
  },
}));
