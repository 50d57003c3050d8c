import { createRoot } from "react-dom/client";
import { Model } from "survey-core";
import { Survey } from "survey-react-ui";
import "survey-core/survey-core.min.css";

// The smallest useful SurveyJS runner: one page with the question kinds the tablet runner renders.
const model = new Model({
  title: "Runner comparison",
  pages: [
    {
      name: "p1",
      title: "Contact",
      elements: [
        { type: "text", name: "name", title: "Your name", isRequired: true },
        { type: "text", name: "phone", title: "Phone number", inputType: "tel" },
        {
          type: "radiogroup",
          name: "smoker",
          title: "Do you smoke?",
          choices: ["yes", "no"],
          isRequired: true,
        },
        { type: "checkbox", name: "diets", title: "Diets", choices: ["Low fat", "None"] },
        { type: "rating", name: "pain", title: "Pain today", rateMin: 0, rateMax: 10 },
      ],
    },
    { name: "p2", title: "More", elements: [{ type: "comment", name: "notes", title: "Anything else?" }] },
  ],
});

const root = document.getElementById("root");
if (root) createRoot(root).render(<Survey model={model} />);
