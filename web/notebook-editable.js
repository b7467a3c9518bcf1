// A widget's text field bound to one of its string traits (text, word): what the reader
// types goes to the kernel after a pause; the kernel's value shows unless the reader is typing.
const TYPING_PAUSE = 150; // ms after the last key before the kernel is asked again

// `show()` puts the trait's value in the field, unless the field has the focus.
export function editable(model, name, field) {
  let typing = 0;
  field.spellcheck = false;
  field.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => { model.set(name, field.value); model.save_changes(); }, TYPING_PAUSE);
  });
  return {
    show() {
      const value = model.get(name);
      if (field.value !== value && field.getRootNode().activeElement !== field) field.value = value;
    },
    stop() { clearTimeout(typing); },
  };
}
