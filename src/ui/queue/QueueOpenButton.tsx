import { useOpenQueueFile } from '../../load';
import { OpenDataFileButton } from '../shared/OpenDataFileButton';

/** Opens a queue file from disk (a static host, `npm start`, or another run's queue). */
export function QueueOpenButton({ primary = false }: { primary?: boolean }) {
  const open = useOpenQueueFile();
  return (
    <OpenDataFileButton
      label="Open a queue file…"
      inputLabel="Queue file"
      what="a review queue"
      accept=".json,application/json"
      open={open}
      primary={primary}
    />
  );
}
