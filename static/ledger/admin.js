// The admin's autocomplete (Select2) names its combobox by the value chosen only, so a
// screen reader hears "Kyle Corbitt", or nothing while it is empty, never "Speaker".
// This names each one by its field's label too (and the box showing the value, which
// Select2 gives the role of a text box), including those of claims added later. A
// many-valued autocomplete (topics) types into a search box, named the same way.
// The fields of a tabular inline's rows have no label of their own: each is named by
// its column's heading and its row.
"use strict";

function nameAutocompletes() {
  for (const select of document.querySelectorAll("select.admin-autocomplete[id]")) {
    const combobox = select.nextElementSibling?.querySelector(".select2-selection[role='combobox']");
    const label = document.querySelector(`label[for='${select.id}']`);
    if (label) {
      label.id ||= `${select.id}-label`;
      const search = select.nextElementSibling?.querySelector(".select2-search__field");
      if (search && search.getAttribute("aria-labelledby") !== label.id) {
        search.setAttribute("aria-labelledby", label.id);
      }
    }
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

function nameTabularFields() {
  const fields = document.querySelectorAll(
    ".inline-group .tabular tbody :is(input, select, textarea)[id]:not([type='hidden'])",
  );
  for (const field of fields) {
    const parts = field.id.match(/^id_.+-(\d+)-(\w+)$/);
    if (!parts || field.getAttribute("aria-label") || document.querySelector(`label[for='${field.id}']`)) {
      continue;
    }
    const [, row, name] = parts;
    const heading = field.closest("table").querySelector(`thead th.column-${CSS.escape(name)}`);
    const column = heading ? heading.textContent.trim() : name === "DELETE" ? "Delete" : name;
    field.setAttribute("aria-label", `${column}, row ${Number(row) + 1}`);
  }
}

function nameFields() {
  nameAutocompletes();
  nameTabularFields();
}

new MutationObserver(nameFields).observe(document.body, { childList: true, subtree: true });
nameFields();
