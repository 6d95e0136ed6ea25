import type { InputHTMLAttributes, Ref } from 'react';

type InputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'value' | 'onChange' | 'aria-describedby' | 'aria-invalid'
>;

export interface TextFieldProps extends InputProps {
  id: string;
  label: string;
  hint?: string;
  /** Shown under the input and tied to it (aria-describedby, aria-invalid). */
  error?: string | undefined;
  value: string;
  onValueChange: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled input with its hint and error, both read out with the input by screen readers. */
export function TextField({
  id,
  label,
  hint,
  error,
  value,
  onValueChange,
  ref,
  className,
  ...inputProps
}: TextFieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="vf-field">
      <label className="vf-label" htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p className="vf-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <input
        {...inputProps}
        ref={ref}
        id={id}
        className={className ? `vf-input ${className}` : 'vf-input'}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-describedby={describedBy}
        aria-invalid={error ? true : undefined}
      />
      {error ? (
        <p className="vf-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
