import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { type FormEvent, useState } from 'react';
import { describe, expect, it } from 'vitest';
import '../testing/render';
import { firstInvalidIn, useFocusAfterRender } from './use-focus-after-render';

/** What each request found at the moment it was made: nothing, since the render that shows it is yet to come. */
const foundAtCall: (Element | null | undefined)[] = [];

function Editor() {
  const [editing, setEditing] = useState(true);
  const focusAfterRender = useFocusAfterRender();
  const close = () => {
    setEditing(false);
    foundAtCall.push(document.getElementById('edit'));
    focusAfterRender('edit');
  };
  return editing ? (
    <button onClick={close}>done</button>
  ) : (
    <button id="edit" onClick={() => setEditing(true)}>
      edit
    </button>
  );
}

function NameForm() {
  const [invalid, setInvalid] = useState(false);
  const focusAfterRender = useFocusAfterRender();
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setInvalid(true);
    const lookup = firstInvalidIn(event.currentTarget);
    foundAtCall.push(lookup());
    focusAfterRender(lookup);
  };
  return (
    <form noValidate onSubmit={submit}>
      <input aria-label="kana" aria-invalid={false} />
      <input aria-label="name" aria-invalid={invalid} />
      <button type="submit">save</button>
    </form>
  );
}

describe('useFocusAfterRender', () => {
  it('focuses, by id, the element that the state change made beside it brings back', async () => {
    foundAtCall.length = 0;
    render(<Editor />);
    fireEvent.click(screen.getByRole('button', { name: 'done' }));
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('button', { name: 'edit' })),
    );
    expect(foundAtCall).toEqual([null]);
  });

  it('focuses the first field a form marks invalid, looked up after the render that marks it', async () => {
    foundAtCall.length = 0;
    render(<NameForm />);
    fireEvent.click(screen.getByRole('button', { name: 'save' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('name')));
    expect(foundAtCall).toEqual([null]);
    // Asked again with the field already invalid: the hook's own render carries the request.
    screen.getByRole('button', { name: 'save' }).focus();
    fireEvent.click(screen.getByRole('button', { name: 'save' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('name')));
  });
});
