import { useOpenRegradeFile } from '../../load';
import { OpenDataFileButton } from '../shared/OpenDataFileButton';

/** Opens a regrade.parquet or regrade.journal from disk (a static host, or a regrade kept elsewhere). */
export function RegradeOpenButton({ primary = false }: { primary?: boolean }) {
  const open = useOpenRegradeFile();
  return (
    <OpenDataFileButton
      label="Open a regrade table…"
      inputLabel="Regrade table"
      what="a regrade table"
      accept=".parquet,.journal,.jsonl"
      open={open}
      primary={primary}
    />
  );
}
