// The admin's autocomplete (Select2) names its combobox by the value chosen only, so a
// screen reader hears "Kyle Corbitt", or nothing while it is empty, never "Speaker".
// This names each one by its field's label too (and the box showing the value, which
// Select2 gives the role of a text box), including those of claims added later.
"use strict";

function nameAutocompletes() {
  for (const select of document.querySelectorAll("select.admin-autocomplete[id]")) {
    const combobox = select.nextElementSibling?.querySelector(".select2-selection[role='combobox']");
    const label = document.querySelector(`label[for='${select.id}']`);
    if (!combobox || !label) {
      continue;
    }
    label.id ||= `${select.id}-label`;
    const shown = combobox.querySelector(`#select2-${CSS.escape(select.id)}-container`);
    const names = [[combobox, `${label.id} select2-${select.id}-container`], [shown, label.id]];
    for (const [element, name] of names) {
      if (element && element.getAttribute("aria-labelledby") !== name) {
        element.setAttribute("aria-labelledby", name);
      }
    }
  }
}

new MutationObserver(nameAutocompletes).observe(document.body, { childList: true, subtree: true });
nameAutocompletes();
