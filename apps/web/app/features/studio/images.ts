// Pixels on the page's side: decoding a chosen file, grabbing a camera frame, and JPEG copies for the
// result and the saved scan. Nothing here leaves the browser.

/** The analysis works on at most this many pixels on the long side (enough for texture at selfie distance). */
export const ANALYSIS_MAX_SIDE = 1280;
/** Live guidance checks smaller frames: faster, and the gates' measures are relative. */
export const GUIDANCE_MAX_SIDE = 480;
/** The saved preview's long side (it shows the face, framed). */
export const THUMBNAIL_MAX_SIDE = 400;

export function fitWithin(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** A chosen file as an image of at most `ANALYSIS_MAX_SIDE`, upright (EXIF orientation applied). */
export async function decodeImageFile(file: Blob): Promise<ImageBitmap> {
  const original = await createImageBitmap(file, { imageOrientation: 'from-image' });
  const size = fitWithin(original.width, original.height, ANALYSIS_MAX_SIDE);
  if (size.width === original.width && size.height === original.height) return original;
  const scaled = await createImageBitmap(original, {
    resizeWidth: size.width,
    resizeHeight: size.height,
    resizeQuality: 'high',
  });
  original.close();
  return scaled;
}

/** The camera's current frame, as the sensor sees it (the preview's mirroring is only for display). */
export async function grabFrame(video: HTMLVideoElement, maxSide: number): Promise<ImageBitmap> {
  const size = fitWithin(video.videoWidth, video.videoHeight, maxSide);
  try {
    return await createImageBitmap(video, {
      resizeWidth: size.width,
      resizeHeight: size.height,
      resizeQuality: 'medium',
    });
  } catch {
    // Browsers without the resize options: the frame drawn at that size on a canvas.
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    canvas.getContext('2d')?.drawImage(video, 0, 0, size.width, size.height);
    return createImageBitmap(canvas);
  }
}

/** A JPEG copy of an image (or of the part of it in `frame`), at most `maxSide` on its long side. */
export function toJpeg(
  image: ImageBitmap,
  maxSide: number,
  quality = 0.9,
  frame = { x: 0, y: 0, width: image.width, height: image.height },
): Promise<Blob> {
  const size = fitWithin(frame.width, frame.height, maxSide);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (!context) return Promise.reject(new Error('2D canvas unavailable'));
  context.drawImage(image, frame.x, frame.y, frame.width, frame.height, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('JPEG encoding failed'))), 'image/jpeg', quality),
  );
}
