import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { qwenTokenTablePlugin } from './scripts/qwenTokenTablePlugin.ts';

export default defineConfig({
  plugins: [react(), qwenTokenTablePlugin()],
  build: {
    outDir: 'dist',
    sourcemap: true,
  },
});
