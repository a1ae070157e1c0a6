// The analysis the worker runs, from the skin package: the face model's configuration and the
// conversion of its answer, the gates for live frames and the full analysis of a photo.
export { analysePhoto, checkGates } from '@skanova/skin/analyse';
export { toDetectedFaces } from '@skanova/skin/faces';
export { humanConfig } from '@skanova/skin/human-config';
