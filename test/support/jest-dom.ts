/** Testing Library's DOM matchers (`toBeInTheDocument`, `toHaveAttribute`, `toBeInvalid`, …). */
import '@testing-library/jest-dom/vitest';
