import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Route, Routes } from 'react-router';

function Hello() {
  return <p>Custodian</p>;
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter basename="/console">
        <Routes>
          <Route path="*" element={<Hello />} />
        </Routes>
      </BrowserRouter>
    </StrictMode>,
  );
}
