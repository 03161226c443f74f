// The language switch in the header: English, Português, Español. The choice
// is kept in this browser; the page reloads to redraw every string in it.
import { h, clear } from './dom.js';
import { t, LANGUAGES, language, setLanguage } from './i18n.js';

export function mountLanguageSwitch(root) {
  const select = h('select', { id: 'lang', 'aria-label': t('app.language') },
    LANGUAGES.map(([code, name]) => h('option', { value: code, lang: code, selected: code === language() }, name)));
  select.addEventListener('change', () => {
    setLanguage(select.value);
    location.reload();
  });
  document.documentElement.lang = language();
  clear(root, select);
}
