import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { qwenTokenTablePlugin } from './scripts/qwenTokenTablePlugin.ts';

export default defineConfig({
  plugins: [react(), qwenTokenTablePlugin()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      treeshake: {
        // The layers' index files only re-export. Taken as having side effects (those of what they re-export),
        // each would pin every module it names into the page's startup chunks, the line parser with every
        // format converter among them, even where only a dynamic import uses it (issue 25).
        moduleSideEffects: [{ test: /\/src\/(format|analysis|load|format\/adapters|format\/directories)\/index\.ts$/, sideEffects: false }],
      },
      output: {
        codeSplitting: {
          groups: [
            // A chunk of its own, which the page's script imports first: it starts a run's shard worker
            // before the app's other chunks are evaluated (src/load/run/startEarly.ts).
            { name: 'startEarly', test: /\/src\/load\/run\/(startEarly|shardDecoder|shardFetch|shardBytes)\.ts$/ },
          ],
        },
      },
    },
  },
});
