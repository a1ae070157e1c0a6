// The address of the face models and the WebAssembly runtime, chosen at build time (vite.config.ts).
declare module 'virtual:studio-models' {
  export const MODELS_BASE: string;
}
