// The patient dropdown lists of SPEC 3, with no zod, so the web app can import them without the schemas.

/** Ethnicity dropdown values (SPEC 3). */
export const ETHNICITIES = ["Hispanic or Latino", "Non Hispanic or Latino", "Other or Undetermined"] as const;

/** Race dropdown values (SPEC 3). */
export const RACES = [
  "Hispanic",
  "Asian",
  "Caucasian",
  "African American",
  "Black or African American",
  "American Indian or Alaska Native",
  "Native American",
  "Other",
  "Undetermined",
  "Chinese",
  "Filipino",
  "Japanese",
  "Native Hawaiian",
  "Multiracial",
  "Pacific Islander",
] as const;

/** US states, DC and territories with their names (SPEC 3). */
export const US_STATE_NAMES = [
  ["AL", "Alabama"], ["AK", "Alaska"], ["AS", "American Samoa"], ["AZ", "Arizona"], ["AR", "Arkansas"],
  ["CA", "California"], ["CO", "Colorado"], ["CT", "Connecticut"], ["DE", "Delaware"],
  ["DC", "District of Columbia"], ["FL", "Florida"], ["GA", "Georgia"], ["GU", "Guam"], ["HI", "Hawaii"],
  ["ID", "Idaho"], ["IL", "Illinois"], ["IN", "Indiana"], ["IA", "Iowa"], ["KS", "Kansas"], ["KY", "Kentucky"],
  ["LA", "Louisiana"], ["ME", "Maine"], ["MH", "Marshall Islands"], ["MD", "Maryland"], ["MA", "Massachusetts"],
  ["MI", "Michigan"], ["MN", "Minnesota"], ["MS", "Mississippi"], ["MO", "Missouri"], ["MT", "Montana"],
  ["NE", "Nebraska"], ["NV", "Nevada"], ["NH", "New Hampshire"], ["NJ", "New Jersey"], ["NM", "New Mexico"],
  ["NY", "New York"], ["NC", "North Carolina"], ["ND", "North Dakota"], ["MP", "Northern Mariana Islands"],
  ["OH", "Ohio"], ["OK", "Oklahoma"], ["OR", "Oregon"], ["PW", "Palau"], ["PA", "Pennsylvania"],
  ["PR", "Puerto Rico"], ["RI", "Rhode Island"], ["SC", "South Carolina"], ["SD", "South Dakota"],
  ["TN", "Tennessee"], ["TX", "Texas"], ["UT", "Utah"], ["VT", "Vermont"], ["VI", "U.S. Virgin Islands"],
  ["VA", "Virginia"], ["WA", "Washington"], ["WV", "West Virginia"], ["WI", "Wisconsin"], ["WY", "Wyoming"],
] as const; // prettier-ignore

/** US state, DC and territory codes (SPEC 3). */
export const US_STATES = US_STATE_NAMES.map(([code]) => code);
