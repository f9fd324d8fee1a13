import type { ClassifyAnswer } from '../../../shared/api/classification';

const percent = (p: number) => `${(p * 100).toFixed(1)}%`;

function Bar({ label, p }: { label: string; p: number }) {
  return (
    <div className="tools-bar">
      <span>{label}</span>
      <span
        className="tools-bar-track"
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={1}
        aria-valuenow={p}
        aria-valuetext={percent(p)}
      >
        <span className="tools-bar-fill" style={{ width: `${Math.round(p * 1000) / 10}%` }} />
      </span>
      <span className="tools-bar-value">{percent(p)}</span>
    </div>
  );
}

/** One answer: the decision, its probabilities as bars, and the confidence. */
export function AnswerCard({ name, answer }: { name: string; answer: ClassifyAnswer }) {
  return (
    <section className="tools-panel" aria-label={`Answer ${name}`}>
      <h3>
        {name}:{' '}
        {answer.type === 'choice'
          ? answer.choice
          : answer.type === 'score'
            ? `score ${answer.score.toFixed(2)}`
            : `${percent(answer.noul)} that it holds`}
      </h3>
      {answer.type === 'choice' &&
        Object.entries(answer.probabilities).map(([label, p]) => <Bar key={label} label={label} p={p} />)}
      {answer.type === 'score' &&
        Object.entries(answer.probabilities).map(([level, p]) => (
          <Bar key={level} label={`${level}: ${answer.legend[level] ?? ''}`} p={p} />
        ))}
      {answer.type === 'noul' && (
        <>
          <Bar label="true" p={answer.noul} />
          <Bar label="false" p={1 - answer.noul} />
        </>
      )}
      <p className="muted">Confidence {percent(answer.confidence)}</p>
    </section>
  );
}
