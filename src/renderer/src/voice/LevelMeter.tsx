const FLOOR_DB = -80

const percent = (db: number) => Math.round(Math.min(1, Math.max(0, (db - FLOOR_DB) / -FLOOR_DB)) * 100)

/** The microphone level with the speech threshold marked on it. */
export function LevelMeter({ levelDb, thresholdDb }: { levelDb: number; thresholdDb: number }) {
  const level = Number.isFinite(levelDb) ? levelDb : FLOOR_DB
  const loud = level >= thresholdDb
  return (
    <>
      <meter
        className="visually-hidden"
        aria-label="Microphone level"
        min={FLOOR_DB}
        max={0}
        value={Math.round(level)}
        aria-valuetext={`${Math.round(level)} dB${loud ? ', speech' : ''}`}
      />
      <div className="level-meter" aria-hidden="true">
        <div className={`level-fill${loud ? ' is-loud' : ''}`} style={{ width: `${percent(level)}%` }} />
        <div
          className="level-threshold"
          style={{ left: `${percent(thresholdDb)}%` }}
          title={`Speech threshold ${thresholdDb} dB`}
        />
      </div>
    </>
  )
}
