// The app's stylesheets, imported by its route (routes/studio.tsx) so that the prerendered page links
// them in its head and paints with them: loaded with the pages' chunk, they arrived after the first
// paint, and every page of the app jumped into place (docs/benchmarks.md#web-app-layout-shift). The
// order is the one the pages' chunk gave them.
import './consultation/consultation.css';
import './get-app/get-mobile-app.css';
import './data/data.css';
import './journal/journal.css';
import './routine/routine.css';
import './offline/offline.css';
import './studio.css';
