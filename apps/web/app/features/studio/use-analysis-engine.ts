import { type Dispatch, useEffect, useRef } from 'react';
import { type AnalysisEngine, EngineError, startAnalysisEngine, takeEngineStartedAhead } from './analysis-client';
import type { ScanAction } from './scan-state';

/**
 * Starts the analysis worker when the capture page opens (the models load meanwhile), or takes the one
 * started ahead of the page (analysis-client.ts), and stops it when the page closes.
 */
export function useAnalysisEngine(dispatch: Dispatch<ScanAction>, enabled: boolean) {
  const engine = useRef<AnalysisEngine | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    let started: AnalysisEngine;
    const onProgress = (loaded: number, total: number) => live && dispatch({ type: 'engineProgress', loaded, total });
    try {
      started = takeEngineStartedAhead(onProgress) ?? startAnalysisEngine(onProgress);
    } catch {
      // No Worker support at all.
      dispatch({ type: 'engineFailed', reason: 'unsupported' });
      return;
    }
    engine.current = started;
    started.ready.then(
      ({ modelVersion }) => live && dispatch({ type: 'engineReady', modelVersion }),
      (error: unknown) =>
        live && dispatch({ type: 'engineFailed', reason: error instanceof EngineError ? error.reason : 'crashed' }),
    );
    return () => {
      live = false;
      engine.current = null;
      started.dispose();
    };
  }, [dispatch, enabled]);
  return engine;
}
