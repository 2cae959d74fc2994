import type { Rollout } from '../../../format';

/** The task as given to the model, above its first step. */
export function TaskLane({ record }: { record: Rollout }) {
  const prompt = record.task?.prompt;
  const contract = record.task?.contract;
  return (
    <section className="st-lane st-lane--task" aria-label="Task">
      <div className="st-lane__label">
        Task <span className="faint">· given to the model at the start of its first context</span>
      </div>
      {prompt !== undefined ? (
        <p className="st-lane__prompt">{prompt}</p>
      ) : (
        <p className="faint">No task prompt recorded (task.prompt); the first context below shows what the model was given.</p>
      )}
      {contract !== undefined && (
        <p className="st-lane__contract">
          <span className="st-lane__key">Contract</span> {contract}
        </p>
      )}
      <p className="st-lane__meta">
        <span className="st-lane__key">Task</span> <span className="mono">{record.task_id}</span>
        {record.policy_version !== undefined && (
          <>
            {' '}
            · <span className="st-lane__key">policy</span> <span className="mono">{record.policy_version}</span>
          </>
        )}
        {record.environment_version !== undefined && (
          <>
            {' '}
            · <span className="st-lane__key">environment</span> <span className="mono">{record.environment_version}</span>
          </>
        )}
      </p>
    </section>
  );
}
