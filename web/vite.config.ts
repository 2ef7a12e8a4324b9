// Vite builds the dashboard into web/dist, served by the API process at /dashboard.
import path from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: path.join(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 1500,
    reportCompressedSize: false,
    rollupOptions: {
      // Mantine marks its modules "use client" for server components; a plain SPA bundle ignores it.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
