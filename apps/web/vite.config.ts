import { defineConfig } from 'vite';

export default defineConfig({
  // React's automatic JSX runtime through Vite's own transform (oxc): no plugin needed for a build.
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    // No inline polyfill script: the page's CSP allows this origin's script files only.
    modulePreload: { polyfill: false },
    sourcemap: true,
    rolldownOptions: {
      onwarn(warning, warn) {
        // React Query's `"use client"` markers mean nothing outside server components.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
