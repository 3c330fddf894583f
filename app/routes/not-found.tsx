import { data } from "react-router";
import { NotFoundPage } from "~/root";

export function loader() {
  throw data(null, { status: 404 });
}

export default NotFoundPage;
