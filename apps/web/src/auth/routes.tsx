import { lazy } from "react";
import { Route, Routes } from "react-router-dom";
import LoginPage from "./login-page";

const ForgotPasswordPage = lazy(() => import("./forgot-password-page"));
const ChangePasswordPage = lazy(() => import("./change-password-page"));
const LogoutPage = lazy(() => import("./logout-page"));
const LoginTestPage = lazy(() => import("./login-test-page"));
const TeleAwvPage = lazy(() => import("../awv/tele-awv-page"));
const TeleAwvCompletePage = lazy(() => import("../awv/tele-awv-complete-page"));

/** The /auth screens (SPEC 2); any other /auth path shows the login form. */
export default function AuthRoutes() {
  return (
    <Routes>
      <Route path="forgotpassword" element={<ForgotPasswordPage />} />
      <Route path="changepassword" element={<ChangePasswordPage />} />
      <Route path="logout" element={<LogoutPage />} />
      <Route path="test" element={<LoginTestPage />} />
      <Route path="teleawv" element={<TeleAwvPage />} />
      <Route path="teleawv/complete" element={<TeleAwvCompletePage />} />
      <Route path="*" element={<LoginPage />} />
    </Routes>
  );
}
