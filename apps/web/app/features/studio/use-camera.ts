import { type Dispatch, type RefObject, useEffect, useRef } from 'react';
import type { AnalysisEngine } from './analysis-client';
import { startCameraSession } from './camera-session';
import { ANALYSIS_MAX_SIDE, GUIDANCE_MAX_SIDE, grabFrame } from './images';
import { type ScanAction, cameraProblemOf } from './scan-state';

/** Time between two guidance checks; one check is in flight at most, so a slow device checks less often. */
const GUIDANCE_INTERVAL_MS = 300;

interface CameraOptions {
  video: RefObject<HTMLVideoElement | null>;
  /** The camera is wanted (starting or running). */
  active: boolean;
  /** Frames are checked (the models are ready and the camera runs). */
  checking: boolean;
  engine: RefObject<AnalysisEngine | null>;
  dispatch: Dispatch<ScanAction>;
}

/**
 * The front camera (docs/product/web-app.md#capture-and-gates): started when wanted, stopped when not; while the models are ready,
 * a small frame goes to the worker every few hundred milliseconds, and the gates voted over the last
 * frames (camera-session.ts: a new session each time the camera runs) are the live verdict.
 * Returns `takePhoto`, which grabs a full frame and stops the camera.
 */
export function useCamera({ video, active, checking, engine, dispatch }: CameraOptions) {
  const stream = useRef<MediaStream | null>(null);

  useEffect(() => {
    if (!active) return;
    let live = true;
    const element = video.current;
    const start = async () => {
      if (!navigator.mediaDevices?.getUserMedia)
        throw Object.assign(new Error('no camera API'), { name: 'NotSupported' });
      const media = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } },
        audio: false,
      });
      if (!live) return media.getTracks().forEach((track) => track.stop());
      stream.current = media;
      if (!element) return;
      element.srcObject = media;
      await element.play();
      if (live) dispatch({ type: 'cameraStarted' });
    };
    start().catch((error: unknown) => live && dispatch({ type: 'cameraFailed', problem: cameraProblemOf(error) }));
    return () => {
      live = false;
      stream.current?.getTracks().forEach((track) => track.stop());
      stream.current = null;
      if (element) element.srcObject = null;
    };
  }, [active, dispatch, video]);

  useEffect(() => {
    if (!checking) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    // The camera (re)started: the verdict starts afresh, with no frame and no gate settled.
    const session = startCameraSession<ImageBitmap>((frame, settled) => {
      const worker = engine.current;
      if (!worker) return Promise.reject(new Error('no engine'));
      return worker.check(frame, settled);
    });
    const tick = async () => {
      const element = video.current;
      if (element && engine.current && element.videoWidth > 0) {
        try {
          const verdict = await session.check(await grabFrame(element, GUIDANCE_MAX_SIDE));
          if (live) dispatch({ type: 'frameChecked', verdict });
        } catch {
          // A frame that could not be read or checked: the next one will be. A dead engine reports itself.
        }
      }
      if (live) timer = setTimeout(() => void tick(), GUIDANCE_INTERVAL_MS);
    };
    void tick();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [checking, dispatch, engine, video]);

  return {
    async takePhoto(): Promise<ImageBitmap> {
      const element = video.current;
      if (!element) throw new Error('no camera');
      return grabFrame(element, ANALYSIS_MAX_SIDE);
    },
  };
}
