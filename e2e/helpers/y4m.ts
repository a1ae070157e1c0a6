import { readFileSync, writeFileSync } from 'node:fs';
import jpeg from 'jpeg-js';

// A still photo as a Y4M video (YUV 4:2:0, full-range BT.601) for Chromium's fake camera
// (`--use-file-for-fake-video-capture`): by default the photo itself (a selfie, as a front camera
// frames it); a frame of another size shows it centred, filling the height, on grey. Y4M is a header
// and raw planes: no ffmpeg needed.

export function jpegToY4m(jpegFile: string, y4mFile: string, size?: { width: number; height: number }, frames = 2) {
  const photo = jpeg.decode(readFileSync(jpegFile), { useTArray: true });
  // 4:2:0 needs even sides.
  const width = size?.width ?? photo.width - (photo.width % 2);
  const height = size?.height ?? photo.height - (photo.height % 2);
  const scale = height / photo.height;
  const drawnWidth = Math.round(photo.width * scale);
  const left = Math.round((width - drawnWidth) / 2);
  const rgb = (x: number, y: number): [number, number, number] => {
    const sx = Math.floor((x - left) / scale);
    const sy = Math.floor(y / scale);
    if (sx < 0 || sx >= photo.width || sy < 0 || sy >= photo.height) return [128, 128, 128];
    const i = (sy * photo.width + sx) * 4;
    return [photo.data[i]!, photo.data[i + 1]!, photo.data[i + 2]!];
  };
  const y = Buffer.alloc(width * height);
  const u = Buffer.alloc((width / 2) * (height / 2));
  const v = Buffer.alloc((width / 2) * (height / 2));
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const [r, g, b] = rgb(col, row);
      y[row * width + col] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
      if (row % 2 === 0 && col % 2 === 0) {
        const index = (row / 2) * (width / 2) + col / 2;
        u[index] = Math.max(0, Math.min(255, Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)));
        v[index] = Math.max(0, Math.min(255, Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)));
      }
    }
  }
  const frame = Buffer.concat([Buffer.from('FRAME\n'), y, u, v]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F30:1 Ip A1:1 C420jpeg\n`);
  writeFileSync(y4mFile, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
